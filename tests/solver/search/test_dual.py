"""The dual board: same length, a path mapped back move for move, and the cheaper side searched."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search import dual, parallel
from solver.search.dual import corner_symmetry, dual_board, path_back
from solver.search.heuristic import simple_heuristic
from solver.search.idastar import run
from solver.search.move_pruning import pruning_table
from solver.search.native import remember_route, route_arrays
from solver.search.pdb.database import pdb_heuristic
from solver.search.status import FOUND, MAX_DEPTH
from tests.solver.helpers import assert_legal_path
from tests.solver.search.test_parallel import walk


def corner_walk(n: int, steps: int, seed: int, corner: int) -> Board:
    """A random walk from the goal that ends with the blank on ``corner``."""
    tiles = list(walk(n, steps, seed).tiles)
    blank = tiles.index(0)
    while blank != corner:  # walk the blank straight to the corner: row first, then column
        r, c = divmod(blank, n)
        cr, cc = divmod(corner, n)
        step = (n if cr > r else -n) if r != cr else (1 if cc > c else -1)
        tiles[blank], tiles[blank + step] = tiles[blank + step], 0
        blank += step
    return Board(tuple(tiles), n)


def tiles_of(board: Board) -> np.ndarray:
    return np.array(board.tiles, dtype=np.int64)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_only_corners_have_a_symmetry_and_it_sends_them_to_the_last_cell(n):
    corners = {0, n - 1, n * (n - 1), n * n - 1}
    for cell in range(n * n):
        symmetry = corner_symmetry(n, cell)
        if cell not in corners:
            assert symmetry is None
            continue
        assert symmetry[cell] == n * n - 1
        assert list(symmetry[symmetry]) == list(range(n * n))  # its own inverse
        for a in range(n * n):  # neighbours stay neighbours, so a move stays a move
            for b in range(n * n):
                ra, ca = divmod(a, n)
                rb, cb = divmod(b, n)
                (sa_r, sa_c), (sb_r, sb_c) = divmod(int(symmetry[a]), n), divmod(int(symmetry[b]), n)
                assert (abs(ra - rb) + abs(ca - cb) == 1) == (abs(sa_r - sb_r) + abs(sa_c - sb_c) == 1)


def test_a_board_without_its_blank_in_a_corner_has_no_dual():
    board = Board.from_rows([[1, 2, 3], [4, 0, 5], [7, 8, 6]])
    assert dual_board(tiles_of(board), 3) is None


def test_the_goal_is_its_own_dual_and_a_home_blank_board_dualises_to_its_inverse():
    goal = tiles_of(Board.goal(4))
    assert list(dual_board(goal, 4)[0]) == list(goal)
    swapped = np.array([2, 1, 4, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0], dtype=np.int64)  # an involution
    assert list(dual_board(swapped, 4)[0]) == list(swapped)
    cycled = np.array([2, 3, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0], dtype=np.int64)
    inverse = [3, 1, 2] + list(range(4, 16)) + [0]
    assert list(dual_board(cycled, 4)[0]) == inverse


@pytest.mark.parametrize("n,steps", [(3, 40), (4, 30)])
@pytest.mark.parametrize("corner_index", range(4))
def test_the_dual_needs_as_many_moves_and_its_path_maps_back_to_one_for_the_board(n, steps, corner_index):
    corner = [0, n - 1, n * (n - 1), n * n - 1][corner_index]
    heuristic = simple_heuristic(n, "manhattan")
    for seed in range(4):
        board = corner_walk(n, steps, seed, corner)
        dual_tiles, symmetry = dual_board(tiles_of(board), n)
        dual_start = Board(tuple(int(t) for t in dual_tiles), n)
        assert dual_start.is_solvable()
        alone = run(board, heuristic, "idastar", threads=1, dual=False)
        other = run(dual_start, heuristic, "idastar", threads=1, dual=False)
        assert other.moves == alone.moves, board
        cells = np.array([b.tiles.index(0) for b in other.path], dtype=np.int64)
        mapped = path_back(cells, other.moves, symmetry)
        replayed, tiles = [board], list(board.tiles)
        for blank, target in itertools.pairwise(mapped):
            tiles[int(blank)], tiles[int(target)] = tiles[int(target)], 0
            replayed.append(Board(tuple(tiles), n))
        assert_legal_path(replayed, board)
        assert len(replayed) - 1 == alone.moves


def iteration_sizes(board: Board, heuristic) -> tuple[list[tuple[int, int]], int]:
    """([(bound, nodes expanded)] for each iteration of the board's own search, in order; optimum)."""
    kernel = parallel.kernel_for(board.n, heuristic)
    tiles = tiles_of(board)
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    counters = np.zeros(5, dtype=np.int64)
    pv, best = route_arrays(path, None, None)
    kernel(tiles, path, counters, 0, bound=-1, pv=pv, best=best)
    bound, sizes = int(counters[3]), []
    while True:
        status = kernel(tiles, path, counters, 1 << 40, bound=bound, pv=pv, best=best, prune=pruning_table())
        sizes.append((bound, int(counters[0])))
        if status == FOUND:
            return sizes, int(counters[2])
        bound = int(counters[3])
        remember_route(pv, best)


def raced_nodes(ours: list[tuple[int, int]], theirs: list[tuple[int, int]]) -> int:
    """What the race should expand, from each side's iterations alone (the rule in solver.search.dual)."""
    done = [0, 0]  # iterations run per side
    seen: list[dict[int, int]] = [{}, {}]
    spent = 0
    sides = (ours, theirs)
    while True:
        side = 0 if done[1] >= len(theirs) or (done[0] < len(ours) and ours[done[0]][0] <= theirs[done[1]][0]) else 1
        bound, nodes = sides[side][done[side]]
        spent += nodes
        done[side] += 1
        if done[side] == len(sides[side]):
            return spent  # that side found the goal
        seen[side][bound] = nodes
        common = seen[0].keys() & seen[1].keys()
        if common:
            at = max(common)
            if max(seen[0][at], seen[1][at]) >= dual.PROBE:
                chosen = 0 if seen[0][at] <= seen[1][at] else 1
                return spent + sum(nodes for _, nodes in sides[chosen][done[chosen]:])
        assert spent < dual.PROBE_CAP  # these boards never reach the cap


def test_the_search_takes_the_side_smaller_at_a_common_bound_and_returns_the_boards_own_path(pdb_cache):
    heuristic = pdb_heuristic(4)
    saved = 0
    for seed in range(16):
        board = corner_walk(4, 200, seed, [0, 3, 12, 15][seed % 4])
        dual_tiles, _ = dual_board(tiles_of(board), 4)
        ours, optimum = iteration_sizes(board, heuristic)
        theirs, dual_optimum = iteration_sizes(Board(tuple(int(t) for t in dual_tiles), 4), heuristic)
        assert dual_optimum == optimum
        raced = run(board, heuristic, "pdb", threads=1)
        assert_legal_path(raced.path, board)
        assert raced.moves == optimum
        assert raced.expanded == raced_nodes(ours, theirs), board
        saved += raced.expanded < sum(nodes for _, nodes in ours)
    assert saved >= 3  # the dual side was smaller, and taken, on several (3 of these 16)


def test_the_race_costs_nothing_where_there_is_no_other_side():
    heuristic = simple_heuristic(4, "manhattan")
    middle = Board.from_rows([[5, 1, 2, 4], [9, 6, 3, 8], [13, 10, 0, 11], [14, 15, 7, 12]])
    swapped = Board(tuple([2, 1, 4, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]), 4)
    for board in (middle, swapped):
        raced = run(board, heuristic, "idastar", threads=1)
        alone = run(board, heuristic, "idastar", threads=1, dual=False)
        assert (raced.path, raced.expanded, raced.generated) == (alone.path, alone.expanded, alone.generated)


def test_threads_and_node_limits_see_the_same_race(monkeypatch, pdb_cache):
    monkeypatch.setattr(parallel, "SPLIT_FROM", 1)
    monkeypatch.setattr(parallel, "ENTRIES_PER_THREAD", 3)
    heuristic = pdb_heuristic(4)
    for seed in range(4):
        board = corner_walk(4, 120, seed, [0, 3, 12, 15][seed])
        alone = run(board, heuristic, "pdb", threads=1)
        assert_legal_path(alone.path, board)
        for threads in (2, 3):
            again = run(board, heuristic, "pdb", threads=threads)
            assert (again.path, again.expanded, again.generated) == (alone.path, alone.expanded, alone.generated)


def test_a_node_limit_counts_both_sides_and_names_a_proven_bound(pdb_cache):
    heuristic = pdb_heuristic(4)
    board = corner_walk(4, 300, 7, 3)  # 56 moves: 11,734 nodes raced, 44,187 alone
    full = run(board, heuristic, "pdb", threads=1)
    assert full.expanded < run(board, heuristic, "pdb", threads=1, dual=False).expanded
    for limit in (1, dual.PROBE, full.expanded // 2, full.expanded - 1):
        caught = []
        for threads in (1, 2):
            with pytest.raises(SearchLimitError) as error:
                run(board, heuristic, "pdb", node_limit=limit, threads=threads)
            caught.append((error.value.expanded, error.value.bound))
        assert caught[0] == caught[1] == (limit + 1, caught[0][1])
        assert caught[0][1] is not None and caught[0][1] <= full.moves  # a lower bound on the optimum
    assert run(board, heuristic, "pdb", node_limit=full.expanded, threads=2).path == full.path
