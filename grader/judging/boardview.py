"""Boards side by side, as feedback shows them ("expected | printed")."""

from __future__ import annotations

from collections.abc import Sequence

from solver.board import Board


def side_by_side(titled: Sequence[tuple[str, Board]], gap: int = 4, mark: bool = True) -> str:
    """Render boards in columns under their titles.

    With ``mark``, each tile of a later board that differs from the first board is
    bracketed, so the eye finds the difference at once.

    >>> print(side_by_side([("input", Board.from_tiles([1, 2, 0, 3])), ("printed", Board.goal(2))]))
    input    printed
     1  2     1  2
     0  3    [3][0]
    """
    if not titled:
        return ""
    first = titled[0][1]
    columns: list[list[str]] = []
    for index, (_, board) in enumerate(titled):
        width = len(str(board.n * board.n - 1))
        rows = []
        for r, row in enumerate(board.rows()):
            cells = []
            for c, tile in enumerate(row):
                pos = r * board.n + c
                differs = (mark and index > 0 and board.n == first.n and first.tiles[pos] != tile)
                text = str(tile).rjust(width)
                cells.append(f"[{text}]" if differs else f" {text} ")
            rows.append("".join(cells).rstrip())
        columns.append(rows)
    widths = [max([len(title)] + [len(line) for line in column]) for (title, _), column in zip(titled, columns)]
    height = max(len(column) for column in columns)
    lines = [(" " * gap).join(title.ljust(w) for (title, _), w in zip(titled, widths)).rstrip()]
    for i in range(height):
        parts = [(column[i] if i < len(column) else "").ljust(w) for column, w in zip(columns, widths)]
        lines.append((" " * gap).join(parts).rstrip())
    return "\n".join(lines)
