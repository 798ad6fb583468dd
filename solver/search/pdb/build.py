"""Building a pattern database: a breadth-first search from the goal that tracks the blank, then packing.

Each breadth-first layer is expanded in index order, so the table is swept rather than read at
random. The blank's region is a flood fill over bit masks; moving a pattern tile into it costs
one. See :mod:`solver.search.pdb.database` for what an entry means.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from solver.search.pdb.index import rank_step
from solver.search.pdb.layout import UNSET, Progress, entry_cap, is_dense, is_quad, placements, table_bytes
from solver.search.pdb.views import blank_region


@njit(cache=True, inline="always")
def _flood(reg, free, n, not_first_col, not_last_col):
    """The cells the blank can reach from ``reg`` through ``free`` (bit masks)."""
    while True:
        grow = (reg | ((reg << 1) & not_first_col) | ((reg >> 1) & not_last_col) | (reg << n) | (reg >> n)) & free
        if grow == reg:
            return reg
        reg = grow


@njit(cache=True, inline="always")
def _lowest(mask):
    c = 0
    while not (mask >> c) & 1:
        c += 1
    return c


@njit(cache=True, inline="always")
def _column_masks(n):
    """Bit masks of the cells off the first column and off the last (where a left or right shift may land)."""
    not_first_col = 0
    not_last_col = 0
    for c in range(n * n):
        if c % n != 0:
            not_first_col |= 1 << c
        if c % n != n - 1:
            not_last_col |= 1 << c
    return not_first_col, not_last_col


@njit(cache=True, nogil=True)
def _expand(n, k, weights, queue, head, stop, tail, dist, visited, depth):
    """Expand queued states ``queue[head:stop]`` (all at ``depth``); return (head, tail, entries filled).

    A state is ``index * N² + c``: the pattern's placement and the lowest cell of the blank's
    region. Stops early when the queue might overflow, so the caller can grow it.
    """
    nn = n * n
    full = (1 << nn) - 1
    not_first_col, not_last_col = _column_masks(n)
    pos = np.zeros(k, dtype=np.int64)
    shift = 4 if nn == 16 else 0
    filled = 0
    capacity = queue.shape[0]
    while head < stop and tail + 4 * k <= capacity:
        state = queue[head]
        head += 1
        if shift:  # 4x4: digits by shifts, not divisions
            index = state >> shift
            blank = state & (nn - 1)
            for i in range(k):
                pos[i] = (index >> (shift * i)) & (nn - 1)
        else:
            index = state // nn
            blank = state % nn
            for i in range(k):
                pos[i] = (index // weights[i]) % nn
        occupied = 0
        for i in range(k):
            occupied |= 1 << pos[i]
        region = _flood(1 << blank, full & ~occupied, n, not_first_col, not_last_col)
        for i in range(k):
            p = pos[i]
            r = p // n
            c = p % n
            for j in range(4):
                if j == 0:
                    if r == 0:
                        continue
                    q = p - n
                elif j == 1:
                    if r == n - 1:
                        continue
                    q = p + n
                elif j == 2:
                    if c == 0:
                        continue
                    q = p - 1
                else:
                    if c == n - 1:
                        continue
                    q = p + 1
                if not (region >> q) & 1:
                    continue
                # pattern tile i slides from p into the blank's region at q; the blank is now on p
                child = index + (q - p) * weights[i]
                occ = (occupied & ~(1 << p)) | (1 << q)
                reg = _flood(1 << p, full & ~occ, n, not_first_col, not_last_col)
                key = child * nn + _lowest(reg)
                if visited[key >> 3] & (1 << (key & 7)):
                    continue
                visited[key >> 3] |= 1 << (key & 7)
                if dist[child] == 255:
                    dist[child] = depth + 1
                    filled += 1
                queue[tail] = key
                tail += 1
    return head, tail, filled


def build_table(n: int, tiles: Sequence[int], progress: Progress | None = None) -> np.ndarray:
    """The pattern database of ``tiles`` on an N×N board (uint8, indexed as the module says)."""
    nn, k = n * n, len(tiles)
    weights = np.array([nn ** i for i in range(k)], dtype=np.int64)
    dist = np.full(nn ** k, UNSET, dtype=np.uint8)
    visited = np.zeros((nn ** (k + 1) + 7) // 8, dtype=np.uint8)
    goal_index = sum((t - 1) * int(w) for t, w in zip(tiles, weights))
    occupied = sum(1 << (t - 1) for t in tiles)
    region = blank_region(n, nn - 1, occupied)
    start = goal_index * nn + min(c for c in range(nn) if region >> c & 1)
    visited[start >> 3] |= 1 << (start & 7)
    dist[goal_index] = 0
    queue = np.zeros(1 << 20, dtype=np.int64)
    queue[0] = start
    head, tail, depth = 0, 1, 0
    if progress:
        progress(1)
    while head < tail:
        # a layer in index order: then a tile's moves read and write the tables in a few
        # sweeps instead of at random, which is most of the cost of a 7-tile build
        queue[head:tail].sort()
        stop = tail
        while head < stop:
            if tail + 4 * k > queue.shape[0] - 1:
                # drop the finished part, then grow if still too full
                live = tail - head
                queue[:live] = queue[head:tail]
                stop, tail, head = stop - head, live, 0
                if tail + 4 * k * 1024 > queue.shape[0]:
                    queue = np.concatenate([queue, np.zeros(queue.shape[0], dtype=np.int64)])
            head, tail, filled = _expand(n, k, weights, queue, head, stop, tail, dist, visited, depth)
            if progress and filled:
                progress(int(filled))
        depth += 1
    return dist


@njit(cache=True, nogil=True)
def _pack(n, tiles, dist, packed, dense, quad, cap):
    """The stored table (4-bit sparse, or dense and capped at ``cap``: base 6, or 2-bit with ``quad``)
    from a distance table.

    Returns the largest excess (before any cap), or -1 if an entry does not fit.
    """
    nn = n * n
    k = tiles.shape[0]
    worst = 0
    for index in range(dist.shape[0]):
        value = dist[index]
        if value == 255:
            continue
        rest = index
        manhattan = 0
        rank = 0
        used = 0
        for s in range(k):
            cell = rest % nn
            rest //= nn
            goal = tiles[s] - 1
            manhattan += abs(cell // n - goal // n) + abs(cell % n - goal % n)
            if dense:
                rank, used = rank_step(rank, used, s, cell, nn)
        excess = (value - manhattan) // 2
        if excess < 0 or (value - manhattan) % 2 or (excess > 15 and not dense):
            return -1
        worst = max(worst, excess)
        if dense and quad:
            packed[rank >> 2] |= min(excess, cap) << ((rank & 3) << 1)
        elif dense:
            digit = rank % 3
            packed[rank // 3] += min(excess, cap) * (1 if digit == 0 else (6 if digit == 1 else 36))
        else:
            packed[index >> 1] |= excess << ((index & 1) << 2)
    return worst


def pack_table(n: int, tiles: Sequence[int], dist: np.ndarray) -> np.ndarray:
    """The stored form of a table built by :func:`build_table` (see the module docstring)."""
    packed = np.zeros(table_bytes(n, tiles), dtype=np.uint8)
    if _pack(n, np.array(tiles, dtype=np.int64), dist, packed, is_dense(tiles), is_quad(tiles), entry_cap(tiles)) < 0:
        raise ValueError(f"pattern {tiles} on {n}x{n} has an entry that does not fit its layout")
    return packed


def splits_free_cells(n: int, tiles: Sequence[int], board_tiles: Sequence[int]) -> bool:
    """Whether the cells not holding ``tiles`` fall into more than one region for the blank."""
    occupied = sum(1 << board_tiles.index(t) for t in tiles)
    free = [c for c in range(n * n) if not occupied >> c & 1]
    return blank_region(n, free[0], occupied) != sum(1 << c for c in free)


def check_sparse(n: int, tiles: Sequence[int], dist: np.ndarray) -> str | None:
    """Check a freshly built table: every placement reached, the goal at 0. ``None`` if sound."""
    filled = int(np.count_nonzero(dist != UNSET))
    if filled != placements(n, len(tiles)):
        return f"{filled:,} placements filled, expected {placements(n, len(tiles)):,}"
    if dist[sum((t - 1) * (n * n) ** i for i, t in enumerate(tiles))] != 0:
        return "the goal placement is not at distance 0"
    return None
