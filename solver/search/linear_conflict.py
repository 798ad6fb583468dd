"""Linear conflict, compiled for the IDA* kernel (:mod:`solver.search.kernel`): the moves a row or
column needs beyond its tiles' Manhattan distances.

Two tiles in their goal line but in the wrong order there must step aside for each other: the
line needs two extra moves for every tile outside a longest run in goal order. The kernel keeps
each line's cost and recomputes the two lines a move touches.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def line_cost(board, n, line, is_row, piles):
    """Linear-conflict extra of one row or column: 2 × (tiles in their goal line − LIS of their goal order)."""
    m = 0
    count = 0
    for j in range(n):
        pos = line * n + j if is_row else j * n + line
        t = board[pos]
        if t == 0:
            continue
        goal_row = (t - 1) // n
        goal_col = (t - 1) % n
        if is_row:
            if goal_row != line:
                continue
            key = goal_col
        else:
            if goal_col != line:
                continue
            key = goal_row
        count += 1
        lo = 0
        hi = m
        while lo < hi:
            mid = (lo + hi) >> 1
            if piles[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        piles[lo] = key
        if lo == m:
            m += 1
    return 2 * (count - m)
