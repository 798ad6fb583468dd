"""The route each IDA* iteration remembers for the next: searched first, found as stated, and
changing nothing but where the last iteration meets its goal."""

from __future__ import annotations

import numpy as np
import pytest

from solver.board import Board
from solver.search import native, parallel
from solver.search.heuristic import simple_heuristic
from solver.search.idastar import run
from solver.search.pdb.database import pdb_heuristic
from solver.search.status import MAX_DEPTH, NOT_FOUND
from tests.solver.helpers import KORF_SAMPLE, assert_legal_path
from tests.solver.search.test_parallel import WALKS, walk
from tests.support import require_tool

N = 4
STEPS = ((-N, 0), (N, 1), (-1, 2), (1, 3))  # the blank's moves in the kernels' order: up, down, left, right


def manhattan(tiles: tuple[int, ...]) -> int:
    return sum(abs(p // N - (t - 1) // N) + abs(p % N - (t - 1) % N) for p, t in enumerate(tiles) if t)


def neighbours(blank: int) -> list[int]:
    return [blank + step for step, _ in STEPS
            if 0 <= blank + step < N * N and (abs(step) == N or blank // N == (blank + step) // N)]


def lowest_h_met(tiles: tuple[int, ...], bound: int) -> tuple[int, int, list[int]]:
    """One IDA* iteration by hand, children in direction order: the lowest h accepted, deepest on a
    tie, first met on a tie of both, with its depth and the blank's route."""
    found: list[tuple[int, int, list[int]]] = []

    def visit(board: list[int], route: list[int]) -> None:
        blank, d = route[-1], len(route) - 1
        for cell in neighbours(blank):
            if d > 0 and cell == route[-2]:
                continue
            board[blank], board[cell] = board[cell], 0
            h = manhattan(tuple(board))
            if d + 1 + h <= bound:
                if not found or h < found[0][0] or (h == found[0][0] and d + 1 > found[0][1]):
                    found[:] = [(h, d + 1, route + [cell])]
                if h:
                    visit(board, route + [cell])
            board[cell], board[blank] = board[blank], 0

    visit(list(tiles), [tiles.index(0)])
    return found[0]


def arrays(route: list[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    path, counters = np.zeros(MAX_DEPTH + 1, dtype=np.int64), np.zeros(5, dtype=np.int64)
    pv, best = native.route_arrays(path, None, None)
    if route:
        pv[0] = len(route)
        pv[1:len(route) + 1] = route
    return path, counters, pv, best


def kernels(request) -> list[tuple[str, object]]:
    """(name, kernel) for numba's kernel on Manhattan and, with a C compiler, the native one on the tables."""
    found = [("numba", parallel._Kernel(N, simple_heuristic(N, "manhattan")))]
    try:
        require_tool("cc")
    except pytest.skip.Exception:
        return found
    request.getfixturevalue("pdb_cache")
    native_kernel = native.native_kernel(N, pdb_heuristic(N))
    assert native_kernel is not None
    return found + [("native", native_kernel)]


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_each_iteration_reports_the_lowest_h_it_met(seed):
    board = walk(N, 80, seed)
    kernel = parallel._Kernel(N, simple_heuristic(N, "manhattan"))
    bound = run(board, simple_heuristic(N, "manhattan"), "idastar", threads=1).moves - 2  # the last iteration but one
    assert bound > manhattan(board.tiles)
    path, counters, pv, best = arrays()
    tiles = np.array(board.tiles, dtype=np.int64)
    assert kernel(tiles, path, counters, 10**9, bound=bound, pv=pv, best=best) == NOT_FOUND
    h, depth, route = lowest_h_met(board.tiles, bound)
    assert (int(best[0]), int(best[1]), best[2:depth + 3].tolist()) == (h, depth, route)


def test_the_remembered_route_is_searched_first(request):
    board = walk(N, 60, 5)
    tiles = np.array(board.tiles, dtype=np.int64)
    blank = board.tiles.index(0)
    # a route whose every step is the last a plain order would try there
    route = [blank]
    for _ in range(4):
        route.append([c for c in neighbours(route[-1]) if len(route) < 2 or c != route[-2]][-1])
    for name, kernel in kernels(request):
        listed = {}
        for remembered in (None, route):
            path, counters, pv, best = arrays(remembered)
            entries, counts = np.zeros((512, 4), dtype=np.int64), np.zeros((512, 4), dtype=np.int64)
            assert kernel(tiles, path, counters, 10**9, bound=80, collect_depth=3, entries=entries, counts=counts,
                          pv=pv, best=best) == NOT_FOUND
            listed[remembered is not None] = [tuple(e) for e in entries[:int(counters[4])]]
        plain, first = listed[False], listed[True]
        assert plain[0] != tuple(route[:4]) and first[0] == tuple(route[:4]), name
        assert sorted(first) == sorted(plain), name  # the same nodes, in another order
        # the route's subtree at each level comes before its siblings
        on_route = [e[:2] == tuple(route[:2]) for e in first]
        assert on_route == sorted(on_route, reverse=True), name


def test_remembering_the_route_keeps_the_optimum(pdb_cache):
    heuristic = pdb_heuristic(N)
    for line in KORF_SAMPLE:
        length, *tiles = map(int, line.split())
        board = Board.from_tiles(tiles)
        first = run(board, heuristic, "pdb", threads=1)
        assert_legal_path(first.path, board)
        assert run(board, heuristic, "pdb", threads=1, route_first=False).moves == first.moves == length
    manhattan_h = simple_heuristic(N, "manhattan")
    for board in WALKS:
        plain = run(board, manhattan_h, "idastar", threads=1, route_first=False)
        assert run(board, manhattan_h, "idastar", threads=1).moves == plain.moves
