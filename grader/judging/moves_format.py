"""Answers printed as moves, as other 8-puzzle assignments print them, read leniently.

Three styles, chosen by ``[output] moves`` in ``assignment.toml``:

- ``lines``: one move per line, ``UP``/``DOWN``/``LEFT``/``RIGHT``::

      UP
      LEFT

- ``path_to_goal``: a ``key: value`` report whose ``path_to_goal`` is a list of moves and
  whose ``cost_of_path`` is their number; every other key (``nodes_expanded``,
  ``running_time``...) is ignored::

      path_to_goal: ['Up', 'Left']
      cost_of_path: 2

- ``letters``: ``U D L R``, separated by spaces or commas, or run together (``ULDR``).

Every style takes a move's full name or its first letter, in any case (each deviation
from the style's own spelling is kept as a :class:`~solver.formats.Note`, for strict
grading). Whether a move names the direction the blank travels or the direction the
tile travels is the assignment's choice (``[output] move_names``); :func:`blank_move`
turns either into the solver's own :class:`~solver.board.Move` (the blank's direction),
so the path is checked with the solver's move rules, never re-implemented ones.

Parsing is linear in the output's length (no regular expression can backtrack over a
student's line). A line that says the board is unsolvable, in an accepted wording, is
recorded as in the boards format. Errors are :class:`~solver.errors.SolutionFormatError`
naming the line, what was expected and what was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.board import Move
from solver.errors import SolutionFormatError
from solver.formats import DEFAULT_UNSOLVABLE_WORDINGS, decode_text
from solver.notes import Note, character_notes, collapse_notes

STYLES = ("lines", "path_to_goal", "letters")
MOVE_NAMES = ("blank", "tile")
"""``blank``: a move names the direction the blank travels (the solver's convention);
``tile``: the direction the tile next to the blank travels into it (the opposite)."""

_WORDS = {"up": Move.UP, "down": Move.DOWN, "left": Move.LEFT, "right": Move.RIGHT,
          "u": Move.UP, "d": Move.DOWN, "l": Move.LEFT, "r": Move.RIGHT}
_CANONICAL = {"lines": lambda move: move.name, "letters": lambda move: move.name[0],
              "path_to_goal": lambda move: move.name.capitalize()}
_SHOWN = 40


@dataclass(frozen=True)
class ParsedMoves:
    """What a moves answer says: the moves as printed (named in the assignment's convention),
    the line of each, the stated cost (``path_to_goal`` only) and an unsolvable claim."""

    moves: tuple[Move, ...]
    move_lines: tuple[int, ...]
    tokens: tuple[str, ...]
    cost: int | None = None
    cost_line: int | None = None
    unsolvable: bool = False
    unsolvable_line: int | None = None
    notes: tuple[Note, ...] = field(default=())


def blank_move(move: Move, move_names: str) -> Move:
    """The direction the blank travels for a printed move, under the assignment's convention."""
    if move_names not in MOVE_NAMES:
        raise ValueError(f"move_names is one of {', '.join(MOVE_NAMES)}, not {move_names!r}")
    return move if move_names == "blank" else move.opposite


def _show(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def _normalize_wording(text: str) -> str:
    return " ".join(text.split()).rstrip(".!").lower()


class _Reader:
    """Collects moves and notes for one answer."""

    def __init__(self, source: str, style: str) -> None:
        self.source, self.style = source, style
        self.moves: list[Move] = []
        self.lines: list[int] = []
        self.tokens: list[str] = []
        self.notes: list[Note] = []

    def move(self, token: str, line: int, expected: str) -> None:
        move = _WORDS.get(token.lower())
        if move is None:
            raise SolutionFormatError(self.source, line, expected, _show(token))
        if token != _CANONICAL[self.style](move):
            self.notes.append(Note(line, f"move {_show(token)} is spelled {_CANONICAL[self.style](move)!r} in this "
                                         "format", "move spelling"))
        self.moves.append(move)
        self.lines.append(line)
        self.tokens.append(token)


def _split_list_items(text: str) -> list[str]:
    """The items of ``['Up', 'Left']`` (quotes and spaces stripped), in one pass."""
    items = []
    for raw in text.split(","):
        item = raw.strip().strip("'\"").strip()
        items.append(item)
    if items == [""]:
        return []
    return items


def parse_moves(data: bytes | str, style: str, source: str = "output", *,
                unsolvable_wordings: Sequence[str] = DEFAULT_UNSOLVABLE_WORDINGS) -> ParsedMoves:
    """Read a moves answer in ``style`` (one of :data:`STYLES`); raise :class:`SolutionFormatError`.

    >>> [m.name for m in parse_moves("UP\\nLEFT\\n", "lines").moves]
    ['UP', 'LEFT']
    >>> parsed = parse_moves("path_to_goal: ['Up', 'Left']\\ncost_of_path: 2\\n", "path_to_goal")
    >>> [m.name for m in parsed.moves], parsed.cost
    (['UP', 'LEFT'], 2)
    >>> [m.name for m in parse_moves("U D\\nLR", "letters").moves]
    ['UP', 'DOWN', 'LEFT', 'RIGHT']
    """
    if style not in STYLES:
        raise ValueError(f"style is one of {', '.join(STYLES)}, not {style!r}")
    text = decode_text(data, source, SolutionFormatError)
    wordings = {_normalize_wording(w) for w in unsolvable_wordings}
    reader = _Reader(source, style)
    if "\r\n" in text:
        reader.notes.append(Note(1, "CRLF line endings (the format uses LF)"))
    if text and not text.endswith("\n"):
        reader.notes.append(Note(text.count("\n") + 1, "no newline at the end of the file"))
    reader.notes.extend(character_notes(text))
    unsolvable_line: int | None = None
    cost: int | None = None
    cost_line: int | None = None
    path_line: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if _normalize_wording(line) in wordings:
            unsolvable_line = unsolvable_line or number
            continue
        if style == "lines":
            if len(line.split()) != 1:
                raise SolutionFormatError(source, number, "one move per line (UP, DOWN, LEFT or RIGHT)",
                                          _show(line))
            reader.move(line, number, "a move: UP, DOWN, LEFT or RIGHT")
        elif style == "letters":
            for token in line.replace(",", " ").split():
                letters = token if len(token) > 1 and all(ch in "UDLRudlr" for ch in token) else None
                for part in (letters or [token]):
                    reader.move(part, number, "moves as the letters U, D, L and R")
        else:
            key, colon, value = line.partition(":")
            key = key.strip().lower()
            if not colon:
                raise SolutionFormatError(source, number, "a 'key: value' line such as path_to_goal: [...]",
                                          _show(line))
            if key == "path_to_goal":
                if path_line is not None:
                    raise SolutionFormatError(source, number, "one path_to_goal line",
                                              f"a second one (the first is on line {path_line})")
                value = value.strip()
                if not (value.startswith("[") and value.endswith("]")):
                    raise SolutionFormatError(source, number, "a list of moves in brackets, such as "
                                              "['Up', 'Left']", _show(value))
                path_line = number
                for item in _split_list_items(value[1:-1]):
                    reader.move(item, number, "a move in the list: 'Up', 'Down', 'Left' or 'Right'")
            elif key == "cost_of_path":
                value = value.strip()
                if not value.isdigit() or len(value) > 9:
                    raise SolutionFormatError(source, number, "a whole number of moves after cost_of_path:",
                                              _show(value))
                cost, cost_line = int(value), number
    if style == "path_to_goal" and path_line is None and unsolvable_line is None:
        raise SolutionFormatError(source, None, "a line path_to_goal: [...] listing the moves",
                                  "none" if text.strip() else "empty output")
    return ParsedMoves(tuple(reader.moves), tuple(reader.lines), tuple(reader.tokens), cost, cost_line,
                       unsolvable_line is not None, unsolvable_line, collapse_notes(reader.notes))

