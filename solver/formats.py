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
from solver.notes import Note, Notes, character_notes

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
    if token.isdecimal() and len(token) <= MAX_DIGITS:  # most tokens: what the pattern's \d+ alone matches
        return int(token)
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
    reader = _SolutionReader(source, n, {_normalize_wording(w): w for w in unsolvable_wordings})
    notes = reader.notes
    if "\r\n" in text:
        notes.add(1, "CRLF line endings (the format uses LF)")
    if text and not text.endswith("\n"):
        notes.add(text.count("\n") + 1, "no newline at the end of the file")
    for note in character_notes(text):
        notes.add(note.line, note.message, note.kind)
    for number, raw in enumerate(text.splitlines(), start=1):
        reader.read_line(number, raw)
    return reader.finish(text.count("\n") + 1)


class _SolutionReader:
    """The state of :func:`parse_solution` between lines: the board being read, the boards read, the notes."""

    def __init__(self, source: str, n: int | None, wordings: dict[str, str]) -> None:
        self.source, self.wordings, self.size_hint, self.notes = source, wordings, n, Notes()
        # A line starting with a digit is a board row or an N line, unless a wording starts with one ("0 moves")
        self.numeric_wording = any(w[:1].isdecimal() for w in wordings)
        self.moves: int | None = None
        self.header_line: int | None = None
        self.unsolvable_line: int | None = None
        self.boards: list[Board] = []
        self.board_lines: list[int] = []
        self.current: list[int] = []  # tiles of the board being read, its size, first line and rows so far
        self.current_n = self.current_line = self.rows_read = 0
        self.blank_after_board, self.seen_content = True, False

    def read_line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return self._blank(number)
        if raw != line and raw.rstrip("\r") != line:
            self.notes.add(number, "leading or trailing spaces")
        self.seen_content = True
        if line[0].isdecimal() and not self.numeric_wording:  # neither the header nor a wording
            return self._numbers(number, line)
        header = _HEADER_RE.match(line)
        if header:
            self._header(number, line, header.group(1))
        elif _normalize_wording(line) in self.wordings:
            self.unsolvable_line = self.unsolvable_line or number
            if line != UNSOLVABLE:
                self.notes.add(number, f"unsolvable wording {_show(line, 60)} (the format says {UNSOLVABLE!r})",
                               "unsolvable wording")
        else:
            self._numbers(number, line)

    def _blank(self, number: int) -> None:
        if self.current_n:
            raise SolutionFormatError(self.source, number, f"row {self.rows_read + 1} of {self.current_n} of the "
                                      f"board that starts on line {self.current_line}", "an empty line")
        if not self.seen_content or self.blank_after_board:
            self.notes.add(number, "an extra empty line")
        self.blank_after_board = True

    def _header(self, number: int, line: str, moves_text: str) -> None:
        if self.current_n:
            raise SolutionFormatError(self.source, number, f"row {self.rows_read + 1} of the board that starts on "
                                      f"line {self.current_line}", _show(line))
        value = _integer(moves_text)
        if value is None:
            raise SolutionFormatError(self.source, number, "an integer K after 'Minimum number of moves ='",
                                      _show_number(moves_text))
        if self.moves is None:
            self.moves, self.header_line = value, number
            if self.boards:
                self.notes.add(number, "the header comes after the boards (it belongs first)")
        elif value != self.moves:
            raise SolutionFormatError(self.source, number, f"the same K as the header on line {self.header_line} "
                                      f"({self.moves})", f"a second header saying {value}")
        else:
            self.notes.add(number, f"the header is printed again (first on line {self.header_line})", "header again")
        if line != HEADER.format(moves=value):
            self.notes.add(number, f"header spacing differs from {HEADER.format(moves=value)!r}", "header spacing")

    def _numbers(self, number: int, line: str) -> None:
        """An N line or a board row."""
        tokens = line.split()
        parsed = [_integer(t) for t in tokens]
        values = [v for v in parsed if v is not None]
        if len(values) != len(parsed):
            bad = next(t for t, v in zip(tokens, parsed) if v is None)
            expected = (f"row {self.rows_read + 1} of the board that starts on line {self.current_line}"
                        if self.current_n else f"the header {HEADER.format(moves='K')!r}, an N line or a board row")
            found = _show(line, 60) if _INT_RE.match(bad) is None else f"{_show_number(bad)} in {_show(line, 60)}"
            raise SolutionFormatError(self.source, number, expected, found)
        if len(values) == 1 and not self.current_n:
            return self._size_line(number, values[0])
        if not self.current_n:
            if self.size_hint is None:
                raise SolutionFormatError(self.source, number, "an N line before the board rows", _show(line, 60))
            self.notes.add(number, "a board printed without its N line")
            self.current_n, self.current_line = self.size_hint, number
            self.blank_after_board = False
        if len(values) != self.current_n:
            raise SolutionFormatError(self.source, number, f"{self.current_n} tiles in row {self.rows_read + 1} of "
                                      f"the board that starts on line {self.current_line}",
                                      f"{len(values)}: {_show(line, 60)}")
        self.current.extend(values)
        self.rows_read += 1
        if self.rows_read == self.current_n:
            self._finish_board()

    def _size_line(self, number: int, size: int) -> None:
        if not 2 <= size <= MAX_N:
            raise SolutionFormatError(self.source, number, f"a board size N from 2 to {MAX_N}", str(size))
        if not self.blank_after_board:
            self.notes.add(number, "no empty line between boards")
        self.current_n, self.current_line, self.size_hint = size, number, size
        self.blank_after_board = False

    def _finish_board(self) -> None:
        n = self.current_n
        try:
            self.boards.append(Board.from_tiles(self.current, n))
        except ValueError as exc:
            raise SolutionFormatError(self.source, self.current_line, f"a valid {n}x{n} board", str(exc)) from None
        self.board_lines.append(self.current_line)
        self.current, self.current_n, self.rows_read = [], 0, 0

    def finish(self, last_line: int) -> ParsedSolution:
        if self.current_n:
            raise SolutionFormatError(self.source, last_line, f"{self.current_n} rows for the board that starts "
                                      f"on line {self.current_line}", f"only {self.rows_read}")
        if self.boards and not self.blank_after_board:
            self.notes.add(self.board_lines[-1], "no empty line after the last board")
        if not self.seen_content:
            raise SolutionFormatError(self.source, None, "a solution or an unsolvable message", "empty output")
        return ParsedSolution(self.moves, self.header_line, tuple(self.boards), tuple(self.board_lines),
                              self.unsolvable_line is not None, self.unsolvable_line, self.notes.collapse())
