"""Pure functions on row-major tile tuples that :mod:`solver.board` builds on: checking a grid or a
permutation, parities and inversion counts, the longest increasing subsequence, and the Manhattan
distance, by a small per-size table up to :data:`SMALL_N` and directly above.
"""

from __future__ import annotations

import bisect
import functools
import operator
from collections.abc import Sequence

SMALL_N = 5
"""Up to this size the searches' hot path (:meth:`Board.successors`, :meth:`Board.manhattan`) reads
small per-size lookup tables (at most 625 entries each); larger boards compute every value
directly, so a 127×127 board costs what its tiles cost (the tables grew as N⁴: 2 GB at 127×127)."""


@functools.cache
def manhattan_table(n: int) -> tuple[tuple[int, ...], ...]:
    """``table[tile][pos]``: grid distance from ``pos`` to the tile's goal cell (N⁴ entries: N <= SMALL_N only)."""
    if n > SMALL_N:
        raise ValueError(f"the Manhattan table is kept for N <= {SMALL_N} only, not {n}")
    table = [tuple(0 for _ in range(n * n))]
    for tile in range(1, n * n):
        goal_row, goal_col = divmod(tile - 1, n)
        table.append(tuple(abs(p // n - goal_row) + abs(p % n - goal_col) for p in range(n * n)))
    return tuple(table)


def manhattan_direct(tiles: tuple[int, ...], n: int) -> int:
    """The Manhattan distance computed tile by tile, without a table (every size above ``SMALL_N``)."""
    total = index = 0
    for row in range(n):
        for col in range(n):
            tile = tiles[index]
            index += 1
            if tile:
                goal_row, goal_col = divmod(tile - 1, n)
                total += abs(row - goal_row) + abs(col - goal_col)
    return total


def count_inversions(tiles: Sequence[int]) -> int:
    """Pairs of non-blank tiles in the wrong order, read row-major, counted with a Fenwick tree over
    the tile values: N² log N, so a 127×127 board takes milliseconds, not the hours of a pairwise count.

    >>> count_inversions((1, 2, 3, 4, 5, 6, 8, 7, 0)), count_inversions((0, 3, 2, 1))
    (1, 3)
    """
    size = len(tiles)
    counts = [0] * (size + 1)  # Fenwick tree over tile values: how many of each were seen
    inversions = seen = 0
    for tile in tiles:
        if not tile:
            continue
        at, not_greater = tile, 0
        while at:
            not_greater += counts[at]
            at &= at - 1
        inversions += seen - not_greater
        at = tile
        while at <= size:
            counts[at] += 1
            at += at & -at
        seen += 1
    return inversions


def check_permutation(tiles: Sequence[int], n: int) -> None:
    """Raise ``ValueError`` naming the first tile out of range or repeated."""
    if sorted(tiles) == list(range(n * n)):
        return
    seen: set[int] = set()
    for t in tiles:
        if not 0 <= t < n * n:
            raise ValueError(f"tile {t} is out of range 0..{n * n - 1}")
        if t in seen:
            raise ValueError(f"tile {t} appears twice")
        seen.add(t)


def grid_tiles(rows: object) -> tuple[tuple[int, ...], int]:
    """The row-major tiles and size of a 2-D list of tiles, checked (see :class:`Board`)."""
    expected = "an n-by-n grid of tiles (a list of n rows of n integers)"
    if rows is None or isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        found = "None" if rows is None else f"a value of type {type(rows).__name__}"
        raise TypeError(f"Board needs {expected}, found {found}")
    n = len(rows)
    if n < 2:
        raise ValueError(f"Board needs {expected} with n >= 2, found {n} row{'' if n == 1 else 's'}")
    tiles: list[int] = []
    for r, row in enumerate(rows, start=1):
        if row is None or isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            found = "None" if row is None else f"a value of type {type(row).__name__}"
            raise TypeError(f"Board needs {expected}: row {r} is {found}")
        if len(row) != n:
            raise ValueError(f"Board needs {expected}: row {r} has {len(row)} tiles, expected {n} "
                             f"(the grid has {n} rows)")
        for c, tile in enumerate(row, start=1):
            try:
                tiles.append(operator.index(tile))
            except TypeError:
                raise TypeError(f"Board needs {expected}: the tile at row {r}, column {c} is {tile!r}, "
                                "not an integer") from None
    try:
        check_permutation(tiles, n)
    except ValueError as exc:
        raise ValueError(f"Board needs the tiles 0..{n * n - 1} once each: {exc}") from None
    return tuple(tiles), n


def permutation_is_odd(values: Sequence[int]) -> bool:
    """Whether a permutation of ``1..len`` has odd parity (``len - cycles`` is odd)."""
    size = len(values)
    visited = bytearray(size + 1)
    cycles = 0
    for start in range(1, size + 1):
        if not visited[start]:
            cycles += 1
            at = start
            while not visited[at]:
                visited[at] = 1
                at = values[at - 1]
    return (size - cycles) % 2 == 1


def lis_length(seq: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence (patience sorting)."""
    piles: list[int] = []
    for x in seq:
        k = bisect.bisect_left(piles, x)
        if k == len(piles):
            piles.append(x)
        else:
            piles[k] = x
    return len(piles)
