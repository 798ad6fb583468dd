"""The one place the file formats live: puzzle input, and the printed solution.

Puzzle input: ``N``, then N² integers separated by any whitespace (CRLF, padded rows,
trailing spaces, no final newline and trailing blank lines are all fine)::

    3
     1  0  2
     4  6  3
     7  5  8

Solution output, exactly::

    Minimum number of moves = K
    N
    <row 1 of the input board, tiles separated by one space>
    ...
    <row N>
    <empty line>
    N
    ... every board of the path, the goal last, each followed by an empty line

or the single line ``No solution possible``. :func:`parse_solution` reads this back
leniently (the grader's parser) and :func:`format_solution` writes it;
``parse_solution(format_solution(path))`` gives the path back.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from solver.board import Board
from solver.errors import (
    BinaryInputError,
    BoardSizeError,
    DuplicateTileError,
    EmptyInputError,
    NotAnIntegerError,
    SolutionFormatError,
    TileCountError,
    TileRangeError,
)

HEADER = "Minimum number of moves = {moves}"
UNSOLVABLE = "No solution possible"
MAX_N = 100
"""Largest board the parsers accept by default; :func:`parse_puzzle` takes ``max_n`` to lift it."""

UNSOLVABLE_BY_PRESET = {
    "princeton": UNSOLVABLE,
    "cmpe160": "No solution found.",
}
"""What each course's expected files print for an unsolvable board: Princeton's checklist says
``No solution possible`` (the default everywhere), CMPE 160's own expected file
(``sample/output.txt``) says ``No solution found.``."""

DEFAULT_UNSOLVABLE_WORDINGS = (
    "No solution possible",
    "Unsolvable puzzle",
    "Board is unsolvable",
    "No solution found",
)

_HEADER_RE = re.compile(r"^minimum\s+number\s+of\s+moves\s*[=:]\s*(\S+)$", re.IGNORECASE)
_INT_RE = re.compile(r"^[+-]?\d+$")
MAX_DIGITS = 18
"""Longest integer the parsers read. Python refuses to convert more than 4,300 digits (and
takes quadratic time below that), and no tile, size or move count needs more than 18."""


def _integer(token: str) -> int | None:
    """The value of an integer token of at most :data:`MAX_DIGITS` digits, else ``None``."""
    if not _INT_RE.match(token) or len(token.lstrip("+-")) > MAX_DIGITS:
        return None
    return int(token)


def _show_number(token: str) -> str:
    """How a message quotes a token: an over-long integer by its length, anything else repr'd."""
    if _INT_RE.match(token) and len(token.lstrip("+-")) > MAX_DIGITS:
        return f"a {len(token.lstrip('+-')):,}-digit number"
    return _show(token)


def _show(token: str, limit: int = 40) -> str:
    """A token as the messages quote it: repr'd and shortened."""
    return repr(token if len(token) <= limit else token[:limit] + "…")


def decode_text(data: bytes | str, source: str, error: type = BinaryInputError) -> str:
    """Bytes to text, refusing NUL bytes and invalid UTF-8 with the line they are on."""
    if isinstance(data, str):
        text = data
    else:
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise error(source, line, "UTF-8 text", f"byte 0x{data[exc.start]:02x}") from None
    nul = text.find("\x00")
    if nul >= 0:
        raise error(source, text[:nul].count("\n") + 1, "text", "a NUL byte (binary data)")
    return text


_ODD_CHARACTER_RE = re.compile(r"(?![0-9])\d|[^\S \n\r]|\r(?!\n)")
"""What the format's strict reading refuses: digits other than ASCII 0-9 (Arabic-Indic, full-width,
Devanagari...; Python's ``int`` reads them), and whitespace other than the space, LF and CRLF (tabs,
NBSP, U+2028/U+2029/U+0085, VT, FF, a lone CR; ``str.split`` and ``splitlines`` take them)."""


def _odd_kind(char: str) -> str:
    if char.isdigit():
        return "non-ASCII digits"
    if char == "\r" or ("a" + char + "b").splitlines() != ["a" + char + "b"]:
        return "line break"
    return "space character"


def character_notes(text: str) -> list[Note]:
    """One note per kind of character the format does not allow but the lenient reading accepts
    (see :data:`_ODD_CHARACTER_RE`), at its first line, with how many there are.

    >>> [(n.line, n.kind) for n in character_notes("3\\u2028\\u0661 2\\n")]
    [(1, 'line break'), (2, 'non-ASCII digits')]
    """
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    for match in _ODD_CHARACTER_RE.finditer(text):
        kind = _odd_kind(match.group())
        counts[kind] = counts.get(kind, 0) + 1
        first.setdefault(kind, match.start())
    what = {"non-ASCII digits": "digits other than ASCII 0-9", "line break": "a line break other than LF or CRLF",
            "space character": "a space character other than the ASCII space"}
    notes = []
    for kind, at in sorted(first.items(), key=lambda item: item[1]):
        char = text[at]
        line = len((text[:at] + "x").splitlines())  # numbered as the parser numbers lines
        shown = f"{char!r} (U+{ord(char):04X} {unicodedata.name(char, 'control character')})"
        notes.append(Note(line, f"{what[kind]}: {shown}, {counts[kind]:,} in all", kind))
    return notes


def _tokens(text: str) -> Iterable[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        for token in line.split():
            yield number, token


# --------------------------------------------------------------------------- puzzle input
def parse_puzzle(data: bytes | str, source: str = "input", *, max_n: int | None = MAX_N) -> Board:
    """Read a puzzle file's contents into a :class:`Board`.

    Raises a subclass of :class:`solver.errors.InputError` naming ``source``, the line,
    what was expected and what was found. ``N`` above ``max_n`` (default :data:`MAX_N`) is
    refused; ``max_n=None`` accepts any ``N >= 2`` (Princeton's "any N").

    >>> parse_puzzle("3\\r\\n 1  0  2 \\r\\n 4 6 3\\n7 5 8").tiles
    (1, 0, 2, 4, 6, 3, 7, 5, 8)
    """
    text = decode_text(data, source)
    tokens = iter(_tokens(text))
    first = next(tokens, None)
    if first is None:
        raise EmptyInputError(source, None, "the board size N followed by N² tiles", "an empty file")
    line, token = first
    n = _integer(token)
    if n is None:
        raise NotAnIntegerError(source, line, "the board size N (an integer)", _show_number(token))
    if n < 2 or (max_n is not None and n > max_n):
        expected = "a board size N of at least 2" if max_n is None else f"a board size N from 2 to {max_n}"
        raise BoardSizeError(source, line, expected, str(n))
    size = n * n
    tiles: list[int] = []
    where: dict[int, int] = {}
    last_line = line
    for line, token in tokens:
        if len(tiles) == size:
            raise TileCountError(source, line, f"exactly {size} tiles for N = {n}",
                                 f"an extra value {_show(token)} after them")
        tile = _integer(token)
        if tile is None:
            raise NotAnIntegerError(source, line, "an integer tile", _show_number(token))
        if not 0 <= tile < size:
            raise TileRangeError(source, line, f"a tile from 0 to {size - 1}", str(tile))
        if tile in where:
            raise DuplicateTileError(source, line, "each tile once",
                                     f"tile {tile} again (first on line {where[tile]})")
        where[tile] = line
        tiles.append(tile)
        last_line = line
    if len(tiles) < size:
        raise TileCountError(source, last_line, f"{size} tiles for N = {n}", f"only {len(tiles)}")
    return Board(tuple(tiles), n)


def format_board(board: Board) -> str:
    """A board as the solution and puzzle files print it: ``N``, then N rows of tiles separated by
    one space, no newline at the end. (``str(board)`` is the Princeton API's ``toString()``, a
    different text.)

    >>> format_board(Board.goal(3))
    '3\\n1 2 3\\n4 5 6\\n7 8 0'
    """
    return "\n".join([str(board.n)] + [" ".join(map(str, row)) for row in board.rows()])


def format_puzzle(board: Board) -> str:
    """A board as a puzzle input file."""
    return format_board(board) + "\n"


# --------------------------------------------------------------------------- solution output
def format_solution(path: Sequence[Board] | None, unsolvable: str = UNSOLVABLE) -> str:
    """The exact output text for a path (input first, goal last) or ``None`` for unsolvable,
    which prints the line ``unsolvable`` (a course's wording from :data:`UNSOLVABLE_BY_PRESET`).

    >>> print(format_solution([Board.from_tiles([1, 2, 3, 0]), Board.goal(2)]), end="")
    Minimum number of moves = 1
    2
    1 2
    3 0
    <BLANKLINE>
    2
    1 2
    3 0
    <BLANKLINE>
    """
    if path is None:
        return unsolvable + "\n"
    if not path:
        raise ValueError("a solution path holds at least the input board")
    parts = [HEADER.format(moves=len(path) - 1) + "\n"]
    parts.extend(format_board(board) + "\n\n" for board in path)
    return "".join(parts)


@dataclass(frozen=True)
class Note:
    """A deviation from the prescribed format that the lenient parser forgave.

    ``kind`` names the deviation (``message`` when empty): notes collapse by kind, so lines
    that differ only in what they quote (a million spellings of the unsolvable wording) are
    one note with a count.
    """

    line: int
    message: str
    kind: str = ""


@dataclass(frozen=True)
class ParsedSolution:
    """What a printed solution says, with the line each part came from.

    ``moves`` is K from the header (``None`` if there was none), ``boards`` the path as
    printed, ``board_lines`` the line each board starts on, ``unsolvable`` whether an
    accepted "unsolvable" wording was printed (and ``unsolvable_line`` where), and
    ``notes`` every deviation from the exact format (for strict grading).
    """

    moves: int | None
    header_line: int | None
    boards: tuple[Board, ...]
    board_lines: tuple[int, ...]
    unsolvable: bool = False
    unsolvable_line: int | None = None
    notes: tuple[Note, ...] = field(default=())


def _normalize_wording(text: str) -> str:
    return " ".join(text.split()).rstrip(".!").lower()


def parse_solution(data: bytes | str, source: str = "output", *, n: int | None = None,
                   unsolvable_wordings: Sequence[str] = DEFAULT_UNSOLVABLE_WORDINGS) -> ParsedSolution:
    """Read a printed solution leniently; raise :class:`SolutionFormatError` if it cannot be read.

    Forgiven (and recorded as :class:`Note`): CRLF or mixed line endings, padded or
    indented rows, extra or missing blank lines, a missing final newline, odd header
    spacing, the header repeated or printed last, and boards printed without their
    ``N`` line when ``n`` (or an earlier ``N`` line) gives the size.

    >>> parse_solution("Minimum number of moves =  1\\r\\n2\\n 1 2\\n 3 0\\n").moves
    1
    """
    text = decode_text(data, source, SolutionFormatError)
    wordings = {_normalize_wording(w): w for w in unsolvable_wordings}
    notes = _Notes()
    moves: int | None = None
    header_line: int | None = None
    unsolvable_line: int | None = None
    boards: list[Board] = []
    board_lines: list[int] = []
    current: list[int] = []  # tiles of the board being read
    current_n = 0
    current_line = 0
    rows_read = 0
    size_hint = n
    blank_after_board = True
    seen_content = False

    if "\r\n" in text:
        notes.add(1, "CRLF line endings (the format uses LF)")
    if text and not text.endswith("\n"):
        notes.add(text.count("\n") + 1, "no newline at the end of the file")
    for note in character_notes(text):
        notes.add(note.line, note.message, note.kind)

    def finish_board() -> None:
        nonlocal current, current_n, rows_read
        try:
            boards.append(Board.from_tiles(current, current_n))
        except ValueError as exc:
            raise SolutionFormatError(source, current_line, f"a valid {current_n}x{current_n} board",
                                      str(exc)) from None
        board_lines.append(current_line)
        current, current_n, rows_read = [], 0, 0

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if current_n:
                raise SolutionFormatError(source, number, f"row {rows_read + 1} of {current_n} of the board "
                                          f"that starts on line {current_line}", "an empty line")
            if not seen_content or blank_after_board:
                notes.add(number, "an extra empty line")
            blank_after_board = True
            continue
        if raw != line and raw.rstrip("\r") != line:
            notes.add(number, "leading or trailing spaces")
        seen_content = True
        header = _HEADER_RE.match(line)
        if header:
            if current_n:
                raise SolutionFormatError(source, number, f"row {rows_read + 1} of the board that starts on "
                                          f"line {current_line}", _show(line))
            value = _integer(header.group(1))
            if value is None:
                raise SolutionFormatError(source, number, "an integer K after 'Minimum number of moves ='",
                                          _show_number(header.group(1)))
            if moves is None:
                moves, header_line = value, number
                if boards:
                    notes.add(number, "the header comes after the boards (it belongs first)")
            elif value != moves:
                raise SolutionFormatError(source, number, f"the same K as the header on line {header_line} "
                                          f"({moves})", f"a second header saying {value}")
            else:
                notes.add(number, f"the header is printed again (first on line {header_line})", "header again")
            if line != HEADER.format(moves=value):
                notes.add(number, f"header spacing differs from {HEADER.format(moves=value)!r}", "header spacing")
            continue
        if _normalize_wording(line) in wordings:
            unsolvable_line = unsolvable_line or number
            if line != UNSOLVABLE:
                notes.add(number, f"unsolvable wording {_show(line, 60)} (the format says {UNSOLVABLE!r})",
                          "unsolvable wording")
            continue
        tokens = line.split()
        values = [_integer(t) for t in tokens]
        bad = next((t for t, v in zip(tokens, values) if v is None), None)
        if bad is not None:
            expected = (f"row {rows_read + 1} of the board that starts on line {current_line}" if current_n
                        else f"the header {HEADER.format(moves='K')!r}, an N line or a board row")
            found = _show(line, 60) if _INT_RE.match(bad) is None else f"{_show_number(bad)} in {_show(line, 60)}"
            raise SolutionFormatError(source, number, expected, found)
        if len(values) == 1 and not current_n:
            if not 2 <= values[0] <= MAX_N:
                raise SolutionFormatError(source, number, f"a board size N from 2 to {MAX_N}", str(values[0]))
            if not blank_after_board:
                notes.add(number, "no empty line between boards")
            current_n, current_line, size_hint = values[0], number, values[0]
            blank_after_board = False
            continue
        if not current_n:
            if size_hint is None:
                raise SolutionFormatError(source, number, "an N line before the board rows", _show(line, 60))
            notes.add(number, "a board printed without its N line")
            current_n, current_line = size_hint, number
            blank_after_board = False
        if len(values) != current_n:
            raise SolutionFormatError(source, number, f"{current_n} tiles in row {rows_read + 1} of the board "
                                      f"that starts on line {current_line}", f"{len(values)}: {_show(line, 60)}")
        current.extend(values)
        rows_read += 1
        if rows_read == current_n:
            finish_board()
    if current_n:
        raise SolutionFormatError(source, text.count("\n") + 1, f"{current_n} rows for the board that starts "
                                  f"on line {current_line}", f"only {rows_read}")
    if boards and not blank_after_board:
        notes.add(board_lines[-1], "no empty line after the last board")
    if not seen_content:
        raise SolutionFormatError(source, None, "a solution or an unsolvable message", "empty output")
    return ParsedSolution(moves, header_line, tuple(boards), tuple(board_lines),
                          unsolvable_line is not None, unsolvable_line, notes.collapse())


MAX_NOTE_KINDS = 12
"""Kinds of deviation listed per answer; the rest are counted in one last note (the parser has fewer
kinds than this, so it only bounds what a future kind could add)."""


class _Notes:
    """The notes of one parse, collapsed as they come: one per kind of deviation, at its first
    line, with how many lines have it (a megabyte of blank lines, or of slightly different
    wordings, is a count, not a million notes); at most :data:`MAX_NOTE_KINDS` kinds."""

    def __init__(self) -> None:
        self.first: dict[str, Note] = {}
        self.count: dict[str, int] = {}

    def add(self, line: int, message: str, kind: str = "") -> None:
        key = kind or message
        count = self.count.get(key)
        if count is None:
            self.first[key] = Note(line, message, key)
        self.count[key] = (count or 0) + 1

    def collapse(self) -> tuple[Note, ...]:
        notes = sorted((Note(note.line, note.message if self.count[key] == 1 else
                             f"{note.message} (on {self.count[key]:,} lines, the first shown)", key)
                        for key, note in self.first.items()), key=lambda note: note.line)
        if len(notes) <= MAX_NOTE_KINDS:
            return tuple(notes)
        rest = notes[MAX_NOTE_KINDS - 1:]
        more = Note(rest[0].line, f"and {len(rest)} more kinds of format deviation (the first on this line)",
                    "more kinds")
        return (*notes[:MAX_NOTE_KINDS - 1], more)


def _collapse(notes: Iterable[Note]) -> tuple[Note, ...]:
    """One note per kind of deviation, at its first line, saying how many lines have it."""
    collected = _Notes()
    for note in notes:
        collected.add(note.line, note.message, note.kind)
    return collected.collapse()
