"""Symmetric views: more lookups in the same pattern tables, at no cost in memory.

A symmetry of the square (a reflection or a quarter turn) maps every board to another board and
every move to a move. A pattern's table may be read on the image of the board: in *frame* F,
board cell ``c`` is seen as cell ``F(c)``, and the tile whose goal cell is ``F⁻¹(g)`` plays the
pattern tile whose goal cell is ``g``. That lookup is admissible when F maps the solved board to
a placement the table counts as solved:

- no pattern tile's goal cell may be the image of the blank's goal cell (N²-1), and
- the blank's goal cell must land in the region of free cells where the table's search started:
  the region of cell N²-1 around the pattern's solved placement (:func:`blank_region`). A pattern
  whose free cells are all connected at its goal reads its table in any frame; one that walls in
  the corner (the 4×4 bottom seven, which surround cell 15) only in frames that fix that cell.

Then every solution of the board is a solution of the image, and the table's entry is a lower
bound on the pattern tiles' moves in it. A *view* gives each pattern of a partition a frame; the
patterns' playing tiles must be disjoint and cover tiles 1..N²-1 once, so that their entries still
add up (each move moves one tile). The heuristic is the max over the views' sums.

The 4×4 8-7 partition has two views over its two tables: the plain one and its reflection about
the main diagonal (the only symmetry that fixes the blank's goal). A left-right flip would be
admissible for the top eight (the top two rows play themselves, mirrored) but reads the same
value as the plain view on every board: the flip maps that pattern's abstract problem onto itself
(its goal leaves the blank the whole bottom half), so the table is symmetric, and the search does
not read it twice. The 7-7-1 partition before it (kept for ``bench/pdb_tables.py``) has two
*flipped* views more: the top seven read through a left-right flip (tiles 1-4 and 6-8 play them),
the bottom seven plainly, tile 5 alone; and that one's reflection. They took 42% fewer nodes than
its first two on Korf's 100 (``bench/pdb_views.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

FRAMES: dict[str, Callable[[int, int, int], tuple[int, int]]] = {
    "identity": lambda r, c, n: (r, c),
    "transpose": lambda r, c, n: (c, r),       # the reflection about the main diagonal
    "flip": lambda r, c, n: (r, n - 1 - c),    # left-right
    "turn": lambda r, c, n: (c, n - 1 - r),    # a quarter turn clockwise: the flip of the transpose
}
"""Each frame as (row, column) -> (row, column) on an N×N board."""

REFLECTED = {"identity": "transpose", "transpose": "identity", "flip": "turn", "turn": "flip"}
"""The frame that reads the reflected board (transposed first) as the named one reads the board."""

Partition = tuple[tuple[int, ...], ...]
VIEWS: dict[tuple[int, Partition], tuple[tuple[str, ...], ...]] = {
    # the 4×4 7-7-1 that solver.search.pdb.layout.PARTITIONS had before its 8-7 (bench/pdb_tables.py):
    # the top seven flipped, tile 5 alone. The 8-7 has none (see the module).
    (4, ((1, 2, 3, 4, 5, 6, 7), (9, 10, 11, 12, 13, 14, 15), (8,))): (("flip", "identity", "flip"),),
}
"""The views, beyond the plain one, that the heuristic reads for an (N, partition); each one frame per pattern."""


class ViewError(ValueError):
    """A view that would not be admissible, or whose patterns overlap."""


def frame_cells(n: int, frame: str) -> np.ndarray:
    """``cells[c]``: the cell that board cell ``c`` is seen as, in the named frame."""
    if frame not in FRAMES:
        raise ViewError(f"unknown frame {frame!r}; frames: {', '.join(FRAMES)}")
    seen = [FRAMES[frame](*divmod(cell, n), n) for cell in range(n * n)]
    return np.array([r * n + c for r, c in seen], dtype=np.int64)


def blank_region(n: int, start: int, occupied: int) -> int:
    """The cells (a bit mask) the blank reaches from ``start`` without entering ``occupied`` cells."""
    region, frontier = 1 << start, [start]
    while frontier:
        cell = frontier.pop()
        r, c = divmod(cell, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            q = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and not (occupied >> q) & 1 and not (region >> q) & 1:
                region |= 1 << q
                frontier.append(q)
    return region


def playing_tiles(n: int, tiles: Sequence[int], frame: str) -> list[int]:
    """The board tiles that play ``tiles`` (in order) when their table is read in ``frame``.

    Raises :class:`ViewError` if that lookup would not be admissible (see the module).
    """
    nn = n * n
    cells = frame_cells(n, frame)
    seen_as = np.empty(nn, dtype=np.int64)
    seen_as[cells] = np.arange(nn)  # seen_as[g]: the board cell seen as cell g
    playing = [int(seen_as[t - 1]) + 1 for t in tiles]
    if nn in playing:
        raise ViewError(f"pattern {'-'.join(map(str, tiles))} in frame {frame}: a pattern tile's goal cell "
                        f"is the image of the blank's")
    occupied = sum(1 << (t - 1) for t in tiles)
    if not blank_region(n, nn - 1, occupied) >> int(cells[nn - 1]) & 1:
        raise ViewError(f"pattern {'-'.join(map(str, tiles))} in frame {frame}: the blank's goal cell lands "
                        f"outside the region its table was searched from")
    return playing


def view_tiles(n: int, partition: Sequence[Sequence[int]], view: Sequence[str]) -> list[list[int]]:
    """Each pattern's playing tiles in ``view``; :class:`ViewError` unless admissible and a partition."""
    if len(view) != len(partition):
        raise ViewError(f"a view of {len(partition)} patterns needs {len(partition)} frames, not {len(view)}")
    playing = [playing_tiles(n, tiles, frame) for tiles, frame in zip(partition, view)]
    if sorted(t for tiles in playing for t in tiles) != list(range(1, n * n)):
        raise ViewError(f"view {'/'.join(view)}: its patterns do not cover tiles 1..{n * n - 1} once each")
    return playing


def seen_board(n: int, frame: str, board_tiles: Sequence[int]) -> tuple[int, ...]:
    """The board as ``frame`` shows it to a table: each tile moved to its cell's image and renamed
    after its goal cell's image (the blank stays the blank). For checks; the search updates ranks."""
    cells = frame_cells(n, frame)
    image = [0] * (n * n)
    for cell, t in enumerate(board_tiles):
        image[int(cells[cell])] = int(cells[t - 1]) + 1 if t else 0
    return tuple(image)


def reflected(view: Sequence[str]) -> tuple[str, ...]:
    """The view that reads the board's reflection as ``view`` reads the board."""
    return tuple(REFLECTED[frame] for frame in view)


def views_for(n: int, partition: Sequence[Sequence[int]], reflect: bool, flipped: bool) -> list[tuple[str, ...]]:
    """The views of ``partition`` the heuristic reads, in the order the search tries them.

    The plain view, and with ``flipped`` the partition's further views in :data:`VIEWS`; each
    followed by its reflection if ``reflect``.
    """
    chosen = [("identity",) * len(partition)]
    if flipped:
        chosen += list(VIEWS.get((n, tuple(tuple(tiles) for tiles in partition)), ()))
    views: list[tuple[str, ...]] = []
    for view in chosen:
        views.append(view)
        if reflect:
            views.append(reflected(view))
    return views
