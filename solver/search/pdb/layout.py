"""Pattern databases' layout: which patterns each size uses, and how a table is indexed and stored.

See :mod:`solver.search.pdb.database` for what an entry means. Three layouts: sparse (index
``sum(cell_i * (N²)**i)``, two 4-bit entries per byte) for up to 6 tiles, dense (the rank of the
placement) from 7 tiles on: three base-6 entries per byte for 7 tiles, four 2-bit entries per byte
(*quad*) from 8 tiles on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

PARTITIONS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {
    # 4×4: 8-7 (the top two rows, the bottom seven), 149 MB. Measured with its reflection by
    # bench/pdb_tables.py against the 7-7-1 before it (the top seven, the bottom seven, tile 8
    # alone; 38 MB) with its four views: 0.42 times the nodes and 0.35 times the time on the 80-move
    # positions, 0.70 and 0.63 times on Korf's 100.
    # The 7-7-1 had 5.5 M nodes on Korf's 100 with its reflection alone (bench/pdb_partitions.py),
    # against 18 M for the max over two 6-6-3 partitions and their reflections, and 38 M for a 7-6-2.
    4: (((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15)),),
    # 5×5: four 5-tile blocks and a 4-tile one, 20 MB (6-tile 5×5 tables would need 122 MB each).
    5: (((1, 2, 3, 6, 7), (4, 5, 8, 9, 10), (11, 12, 16, 17, 21), (13, 14, 15, 18, 19), (20, 22, 23, 24)),),
}
"""The partitions used for each board size that has pattern databases; the heuristic is the
max over their views (:mod:`solver.search.pdb.views`: the plain one, its reflection, and the
4×4 partition's flipped ones)."""


def patterns(n: int) -> list[tuple[int, ...]]:
    """Every pattern whose table the N×N heuristic needs, each once."""
    return list(dict.fromkeys(tiles for partition in PARTITIONS[n] for tiles in partition))


UNSET = 255
_VERSION = 2
DENSE_FROM = 7
"""Patterns with at least this many tiles are stored in the dense layout."""
DENSE_CAP = 5
"""The largest entry the dense layout holds (base 6)."""
QUAD_FROM = 8
"""Dense patterns with at least this many tiles keep four 2-bit entries per byte instead of three
base-6 ones: the 4×4 top eight's table takes 130 MB instead of 173 MB. 8% of its entries exceed
:data:`QUAD_CAP`; capping them costs 10-14% more nodes (measured on the 80-move positions and Korf's
100), and the smaller table keeps the heuristic's memory under 200 MB."""
QUAD_CAP = 3
"""The largest entry the quad layout holds (2 bits)."""
Progress = Callable[[int], None]


def is_dense(tiles: Sequence[int]) -> bool:
    return len(tiles) >= DENSE_FROM


def is_quad(tiles: Sequence[int]) -> bool:
    """Whether a dense pattern's table keeps four 2-bit entries per byte (else three base-6 ones)."""
    return len(tiles) >= QUAD_FROM


def entry_cap(tiles: Sequence[int]) -> int:
    """The largest entry a dense pattern's table holds: larger ones are stored as this (still admissible)."""
    return QUAD_CAP if is_quad(tiles) else DENSE_CAP


def table_key(n: int, tiles: Sequence[int]) -> str:
    layout = ("quad-v1" if is_quad(tiles) else "dense6-v1") if is_dense(tiles) else f"v{_VERSION}"
    return f"pdb-{n}x{n}-{'.'.join(map(str, tiles))}-{layout}"


def placements(n: int, k: int) -> int:
    """Number of ways to place ``k`` distinct tiles on N² cells: the filled entries of a table."""
    return math.perm(n * n, k)


def dense_rank(n: int, cells: Sequence[int]) -> int:
    """The dense index of a placement (``cells[i]``: pattern tile i's cell), as the module says.

    The same steps as the compiled :func:`solver.search.pdb.index.rank_step`, in plain Python so
    that reading a table never imports numba.
    """
    rank, used = 0, 0
    for i, cell in enumerate(cells):
        rank = rank * (n * n - i) + cell - bin(used & ((1 << cell) - 1)).count("1")
        used |= 1 << cell
    return rank


def dense_entry(table: np.ndarray, index: int, quad: bool = False) -> int:
    """Entry ``index`` of a dense table: base 6, three per byte, the lowest digit first; or with
    ``quad``, 2 bits each, four per byte, the lowest bits first."""
    if quad:
        return int(table[index >> 2]) >> ((index & 3) * 2) & 3
    return int(table[index // 3]) // (1, 6, 36)[index % 3] % 6


def table_bytes(n: int, tiles: Sequence[int]) -> int:
    """Size of a stored table: two 4-bit entries per byte over the sparse index; dense, three per byte,
    or four for a quad table."""
    if is_dense(tiles) and is_quad(tiles):
        return (placements(n, len(tiles)) + 3) // 4
    if is_dense(tiles):
        return (placements(n, len(tiles)) + 2) // 3
    return ((n * n) ** len(tiles) + 1) // 2


def pattern_value(n: int, tiles: Sequence[int], table: np.ndarray, board_tiles: Sequence[int]) -> int:
    """The moves pattern ``tiles`` needs on a board, from its stored table (slow path, for checks)."""
    nn = n * n
    cells = [board_tiles.index(t) for t in tiles]
    if is_dense(tiles):
        excess = dense_entry(table, dense_rank(n, cells), is_quad(tiles))
    else:
        index = sum(cell * nn ** i for i, cell in enumerate(cells))
        excess = (int(table[index >> 1]) >> ((index & 1) * 4)) & 15
    manhattan = sum(abs(c // n - (t - 1) // n) + abs(c % n - (t - 1) % n) for c, t in zip(cells, tiles))
    return manhattan + 2 * excess


def max_excess(tiles: Sequence[int], table: np.ndarray) -> int:
    """The most moves any placement needs beyond its tiles' Manhattan distance, as stored."""
    if is_dense(tiles) and is_quad(tiles):
        return 2 * int(max(np.max(table >> shift & 3) for shift in (0, 2, 4, 6)))
    if is_dense(tiles):
        return 2 * int(max(np.max(table % 6), np.max(table // 6 % 6), np.max(table // 36)))
    return 2 * int(max(np.max(table & 15), np.max(table >> 4)))


def check_table(n: int, tiles: Sequence[int], table: np.ndarray) -> str | None:
    """Check a stored table's shape and goal entry: ``None`` if sound, else what is wrong."""
    expected = table_bytes(n, tiles)
    if table.shape != (expected,):
        return f"{table.shape[0]:,} bytes, expected {expected:,}"
    goal = tuple(range(1, n * n)) + (0,)
    if pattern_value(n, tiles, table, goal) != 0:
        return "the goal placement is not at distance 0"
    return None
