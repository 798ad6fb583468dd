"""IDA*'s Python face: run the compiled kernel on a :class:`~solver.board.Board` and read its answer.

The search itself is :func:`solver.search.kernel._search`, or for the 4×4 pattern databases the
native kernel of :mod:`solver.search.native` (the same search, node for node, several times
faster, and without importing numba); :mod:`solver.search.parallel` picks one and shares its
large iterations among threads. This module turns a board into the kernel's
arrays, the kernel's status into a :class:`~solver.search.result.SearchResult` or a
:class:`~solver.errors.SearchLimitError`, and its move list back into boards.
"""

from __future__ import annotations

import time

import numpy as np

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.heuristic import Heuristic, simple_heuristic
from solver.search.parallel import search, threads_available
from solver.search.result import SearchResult, unsolvable_result
from solver.search.status import LIMIT, MAX_DEPTH, NO_LIMIT, TOO_DEEP


def run(board: Board, heuristic: Heuristic, algorithm: str, node_limit: int | None = None,
        threads: int | None = None, route_first: bool = True, pruned: bool = True,
        dual: bool = True) -> SearchResult:
    """Run the kernel on ``board`` and turn its answer into a :class:`SearchResult`.

    Large iterations are shared among ``threads`` threads (default: the CPUs available, see
    :func:`solver.parallel.threads_available`); the answer and counts are the same for any
    number. Raises :class:`SearchLimitError` (naming the bound reached, a lower bound on the
    optimum) once more than ``node_limit`` nodes have been expanded. ``route_first``,
    ``pruned`` and ``dual`` (on by default) are for benchmarks, see
    :func:`solver.search.parallel.search`: either way, the same optimum.
    """
    began = time.perf_counter()
    if not board.is_solvable():
        return unsolvable_result(algorithm, heuristic.name)
    n = board.n
    tiles = np.array(board.tiles, dtype=np.int64)
    limit = NO_LIMIT if node_limit is None else int(node_limit)
    outcome = search(tiles, n, heuristic, limit, threads_available() if threads is None else threads, route_first,
                     pruned, dual)
    expanded, generated, length, bound, path = (outcome.expanded, outcome.generated, outcome.length,
                                                outcome.bound, outcome.path)
    if outcome.status == LIMIT:
        raise SearchLimitError(f"IDA* ({heuristic.name})", limit, expanded, bound)
    if outcome.status == TOO_DEEP:
        # only a board needing more than MAX_DEPTH moves gets here, long after any sane node limit
        raise SearchLimitError(f"IDA* ({heuristic.name}, depth cap {MAX_DEPTH})", limit, expanded, bound)
    boards = [board]
    tiles_now = list(board.tiles)
    for d in range(1, length + 1):
        blank, target = int(path[d - 1]), int(path[d])
        tiles_now[blank], tiles_now[target] = tiles_now[target], 0
        boards.append(Board(tuple(tiles_now), n))
    return SearchResult(tuple(boards), expanded, generated, time.perf_counter() - began, algorithm,
                        heuristic.name)


def idastar(board: Board, heuristic: str = "linear-conflict", node_limit: int | None = None,
            threads: int | None = None) -> SearchResult:
    """IDA* with a heuristic named in :data:`KINDS`; optimal, deterministic, bounded by ``node_limit``."""
    return run(board, simple_heuristic(board.n, heuristic), "idastar", node_limit, threads)
