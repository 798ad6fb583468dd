"""The command sheet's way of writing a board: ``b12 345 678`` (rows of one character per tile,
``b`` for the blank), and the numeric forms the shell, the GUI and the experiment also take.

Pure text ↔ :class:`~solver.board.Board`; :class:`StateError` says what is wrong in the words
the user typed.
"""

from __future__ import annotations

from solver.board import Board

_QUOTES = "\"'“”‘’`"


class StateError(ValueError):
    """A board the user typed cannot be read; the message says what is wrong."""


def format_state(board: Board, indent: str = "") -> str:
    """The board as rows of right-aligned tiles, ``b`` for the blank.

    >>> print(format_state(Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])))
    1 2 3
    4 b 6
    7 5 8
    """
    width = len(str(board.n * board.n - 1))
    return "\n".join(indent + " ".join(f"{t if t else 'b':>{width}}" for t in row) for row in board.rows())


def parse_state(words: list[str]) -> Board:
    """The board of a ``setState`` command's arguments; :class:`StateError` says what is wrong.

    Three forms: N rows of N characters (``b12 345 678``: the sheet's, up to 3×3), N*N
    numbers row by row (``1 2 3 4 5 6 7 8 0``, any N), or N then N*N numbers (as in input
    files). ``b`` or ``0`` is the blank, case does not matter, and quotes around the whole
    state (the sheet writes its goal as “b12 345 678”) are ignored.

    >>> parse_state("b12 345 678".split()).tiles
    (0, 1, 2, 3, 4, 5, 6, 7, 8)
    >>> parse_state("2 1 2 3 b".split()).tiles
    (1, 2, 3, 0)
    >>> parse_state("b12 345 67".split())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.assignment.states.StateError: expected 3 rows of 3 characters (one per tile, b for the blank), ...
    """
    words = " ".join(words).strip(_QUOTES).lower().split()
    if not words:
        raise StateError("expected a board, e.g. 'b12 345 678' or '1 2 3 0', found nothing")
    rows = _looks_like_rows(words)
    if rows:
        n = len(words)
        for number, word in enumerate(words, start=1):
            if len(word) != n:
                raise StateError(f"expected {n} rows of {n} characters (one per tile, b for the blank), "
                                 f"e.g. 'b12 345 678'; row {number} {word!r} has {len(word)} "
                                 f"character{'' if len(word) == 1 else 's'}")
        cells = [c for w in words for c in w]
    else:
        cells = words
    tiles = []
    for cell in cells:
        if cell == "b":
            tiles.append(0)
        elif cell.isdigit():
            tiles.append(int(cell))
        else:
            where = f" in {' '.join(words)!r}" if rows else ""
            raise StateError(f"expected a tile number or b, found {cell!r}{where}")
    root = _square_root(len(tiles))
    if root is None and not rows and _square_root(len(tiles) - 1) == tiles[0]:
        root, tiles = tiles[0], tiles[1:]
    if root is None or root < 2:
        raise StateError(f"expected N*N tiles for some N >= 2 (or N then N*N tiles), found {len(tiles)} values")
    try:
        return Board.from_tiles(tiles, root)
    except ValueError as exc:
        raise StateError(str(exc)) from None


def _looks_like_rows(words: list[str]) -> bool:
    """Whether the words are rows of one character per tile (``b12 345 678``) rather than numbers.

    Rows when there are N >= 2 words and either all have N characters, or some word joins
    ``b`` to other characters, or all are numbers of several digits but too few to be N*N
    numbers (or N then N*N).
    """
    n = len(words)
    if n < 2:
        return False
    if all(len(w) == n for w in words) or any("b" in w and len(w) > 1 for w in words):
        return True
    return all(len(w) > 1 and w.isdigit() for w in words) and _square_root(n) is None and _square_root(n - 1) is None


def _square_root(count: int) -> int | None:
    root = round(count ** 0.5) if count > 0 else 0
    return root if root * root == count and root > 0 else None
