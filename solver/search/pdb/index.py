"""Addressing pattern-table entries: 4-bit sparse entries, base-6 and 2-bit dense entries, and the dense rank.

Compiled (numba) and inlined into the search kernel; the table builder and the Python reader
use the very same functions, so a table is written and read with one definition of its index.
See :mod:`solver.search.pdb.database` for what an entry means.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.search.pdb.layout import QUAD_FROM


@njit(cache=True, nogil=True, inline="always")
def _extra(pdb, offset, index):
    """Entry ``index`` of the 4-bit table starting at byte ``offset``."""
    return (np.int64(pdb[offset + (index >> 1)]) >> ((index & 1) << 2)) & 15


@njit(cache=True, nogil=True)
def dense_extra(pdb, offset, index, k):
    """Entry ``index`` of the dense table of ``k`` tiles starting at byte ``offset``: base 6, three per
    byte, or 2 bits, four per byte, from QUAD_FROM tiles on (solver.search.pdb.layout)."""
    if k >= QUAD_FROM:
        return (np.int64(pdb[offset + (index >> 2)]) >> ((index & 3) << 1)) & 3
    byte = np.int64(pdb[offset + index // 3])
    digit = index % 3
    if digit == 0:
        return byte % 6
    if digit == 1:
        return (byte // 6) % 6
    return byte // 36


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Set bits of a non-negative int64."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True, nogil=True, inline="always")
def rank_step(rank, used, i, cell, nn):
    """Pattern tile ``i`` on ``cell`` added to a dense rank (see :mod:`solver.search.pdb.database`):
    (rank, cells used)."""
    return rank * (nn - i) + cell - popcount(used & ((1 << cell) - 1)), used | (1 << cell)


@njit(cache=True, nogil=True, inline="always")
def _rank(where, cells, base, members, first, k, nn):
    """Dense index of a pattern: its tiles' cells in one set's frame."""
    rank = 0
    used = 0
    for i in range(k):
        rank, used = rank_step(rank, used, i, cells[base + where[members[first + i]]], nn)
    return rank
