"""Exact distance tables for the 2×2 and 3×3 puzzles: solving becomes a walk down the table.

A table has one byte per permutation of the N² tiles, indexed by the permutation's
lexicographic rank (:func:`rank`): the low 5 bits are the optimal number of moves to the
goal, bits 5–6 the first optimal move (its index in UP, DOWN, LEFT, RIGHT order, the first
one in that order when several are optimal), and ``0xFF`` marks the other parity class,
which cannot reach the goal. The tables come from one breadth-first search from the goal
(12 reachable states for 2×2, 181,440 for 3×3).

The 3×3 table ships with the package (``exact3x3.bin``, 362,880 bytes plus a checksummed
header) so that solving an 8-puzzle costs a 0.4 MB read and no search at all; if that
file is ever damaged the table is rebuilt (a few seconds) into the user cache. This module
deliberately imports neither numpy nor numba.
"""

from __future__ import annotations

import functools
import math
import time
from collections import deque
from pathlib import Path

from solver.board import Board, Move, _neighbor_table
from solver.search.result import SearchResult, unsolvable_result

MAX_N = 3
"""Largest board with an exact table (4×4 has 10^13 states)."""
SHIPPED = Path(__file__).with_name("exact3x3.bin")
UNREACHABLE = 0xFF
_MOVES = tuple(Move)
_VERSION = 1


def table_key(n: int) -> str:
    return f"exact-{n}x{n}-v{_VERSION}"


def rank(tiles: tuple[int, ...] | list[int]) -> int:
    """Lexicographic rank of a permutation of ``0..len-1`` (0 for the sorted one).

    >>> rank((0, 1, 2)), rank((2, 1, 0))
    (0, 5)
    """
    size = len(tiles)
    r = used = 0
    for i, tile in enumerate(tiles):
        r = r * (size - i) + tile - (used & ((1 << tile) - 1)).bit_count()
        used |= 1 << tile
    return r


def build_table(n: int) -> bytes:
    """Breadth-first search from the goal over every reachable board: the table's bytes."""
    if not 2 <= n <= MAX_N:
        raise ValueError(f"exact tables exist for 2x2 and 3x3 only, not {n}x{n}")
    table = bytearray([UNREACHABLE]) * math.factorial(n * n)
    neighbors = _neighbor_table(n)
    index = {move: i for i, move in enumerate(_MOVES)}
    goal = Board.goal(n).tiles
    table[rank(goal)] = 0
    queue = deque([goal])
    while queue:
        tiles = queue.popleft()
        here = table[rank(tiles)]
        dist = here & 31
        blank = tiles.index(0)
        for move, target in neighbors[blank]:
            child = list(tiles)
            child[blank], child[target] = child[target], 0
            r = rank(child)
            back = index[move.opposite] << 5  # the child's move towards ``tiles``
            if table[r] == UNREACHABLE:
                table[r] = (dist + 1) | back
                queue.append(tuple(child))
            elif table[r] & 31 == dist + 1 and back < table[r] & 0x60:
                table[r] = (dist + 1) | back
    return bytes(table)


@functools.cache
def exact_table(n: int) -> bytes:
    """The verified table for ``n`` (2 or 3): built in memory for 2×2, read from the package for 3×3.

    A damaged shipped file is ignored in favour of a cached rebuild, never trusted.
    """
    if n == 2:
        return build_table(2)
    from solver.fileio import cache_dir
    from solver.search.tablecache import CorruptTableError, read_table, write_table

    key = table_key(n)
    for where in (lambda: SHIPPED, lambda: cache_dir() / f"{key}.bin"):  # the cache only if needed
        try:
            payload = read_table(where(), key)
        except CorruptTableError:
            payload = None
        if payload is not None and len(payload) == math.factorial(n * n):
            return payload
    payload = build_table(n)
    write_table(cache_dir() / f"{key}.bin", key, payload)
    return payload


def distance(board: Board) -> int:
    """Optimal number of moves for a 2×2 or 3×3 board, or -1 if it cannot be solved."""
    code = exact_table(board.n)[rank(board.tiles)]
    return -1 if code == UNREACHABLE else code & 31


def solve_exact(board: Board) -> SearchResult:
    """The optimal path read off the table: one lookup per move, no search.

    ``expanded`` counts the boards looked up along the path, ``generated`` the boards made.
    """
    began = time.perf_counter()
    if board.n > MAX_N:
        raise ValueError(f"exact tables exist for 2x2 and 3x3 only, not {board.n}x{board.n}")
    table = exact_table(board.n)
    n = board.n
    tiles = list(board.tiles)
    code = table[rank(tiles)]
    if code == UNREACHABLE:
        return unsolvable_result("table", "exact")
    path = [board]
    blank = tiles.index(0)
    steps = [(move.value[0] * n + move.value[1]) for move in _MOVES]
    while code & 31:
        target = blank + steps[code >> 5]
        tiles[blank], tiles[target] = tiles[target], 0
        blank = target
        path.append(Board(tuple(tiles), n))
        code = table[rank(tiles)]
    return SearchResult(tuple(path), len(path), len(path) - 1, time.perf_counter() - began, "table", "exact")
