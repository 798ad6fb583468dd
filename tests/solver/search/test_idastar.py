"""IDA*: optimal for every heuristic, the same heuristics as the board's, bounded, deterministic."""

from __future__ import annotations

import random

import pytest

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.idastar import idastar, run
from solver.search.pdb.database import pdb_heuristic
from tests.solver.helpers import KORF_SAMPLE, assert_legal_path, random_solvable


@pytest.mark.parametrize("heuristic", ["hamming", "manhattan", "linear-conflict"])
def test_idastar_equals_the_exact_3x3_table_on_random_boards(table3, heuristic):
    rng = random.Random(11)
    for _ in range(150):
        board = random_solvable(rng, 3)
        result = idastar(board, heuristic)
        assert_legal_path(result.path, board)
        assert result.moves == table3[board.tiles]
        assert result.algorithm == "idastar" and result.heuristic == heuristic
        assert result.expanded >= result.moves and result.generated >= result.expanded - 1


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_kernel_heuristics_equal_the_boards_own(n):
    """With a node limit of 0 the search stops at once and reports its first bound: h(start)."""
    rng = random.Random(n)
    methods = {"hamming": Board.hamming, "manhattan": Board.manhattan, "linear-conflict": Board.linear_conflict}
    for _ in range(40):
        board = random_solvable(rng, n)
        for name, method in methods.items():
            with pytest.raises(SearchLimitError) as caught:
                idastar(board, name, node_limit=0)
            assert caught.value.bound == method(board)


def test_node_limit_stops_with_a_clear_message_and_a_lower_bound():
    board = Board.from_tiles([int(t) for t in KORF_SAMPLE[0].split()[1:]])
    with pytest.raises(SearchLimitError) as caught:
        idastar(board, "manhattan", node_limit=1000)
    error = caught.value
    assert error.expanded == 1001 and error.limit == 1000
    assert board.manhattan() <= error.bound <= 41
    assert "IDA* (manhattan) stopped after expanding 1,001 nodes (node limit 1,000)" in str(error)
    assert f"the optimum is at least {error.bound} moves" in str(error)


def test_unsolvable_board_gives_no_path_without_searching():
    board = Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0])
    result = idastar(board)
    assert result.path is None and result.expanded == 0


def test_same_board_same_path():
    rng = random.Random(4)
    board = random_solvable(rng, 3)
    first, second = idastar(board, "manhattan"), idastar(board, "manhattan")
    assert first.path == second.path and first.expanded == second.expanded


def test_goal_board_needs_no_moves():
    result = idastar(Board.goal(4))
    assert result.path == (Board.goal(4),) and result.moves == 0


def test_pdb_idastar_solves_korf_instances_to_their_known_length(pdb_cache):
    heuristic = pdb_heuristic(4)
    for line in KORF_SAMPLE:
        length, *tiles = map(int, line.split())
        board = Board.from_tiles(tiles)
        result = run(board, heuristic, "pdb")
        assert result.moves == length
        assert_legal_path(result.path, board)
        assert result.heuristic == "pdb 8-7 +reflected"


def test_pdb_with_linear_conflict_agrees_and_expands_no_more(pdb_cache):
    plain, combined = pdb_heuristic(4), pdb_heuristic(4, with_linear_conflict=True)
    for line in KORF_SAMPLE[:2]:
        length, *tiles = map(int, line.split())
        board = Board.from_tiles(tiles)
        a, b = run(board, plain, "pdb"), run(board, combined, "pdb")
        assert a.moves == b.moves == length
        assert b.expanded <= a.expanded


def test_pdb_idastar_is_optimal_on_random_4x4_boards_a_few_moves_from_the_goal(pdb_cache):
    from solver.search.astar import astar

    rng = random.Random(8)
    heuristic = pdb_heuristic(4)
    for _ in range(30):
        board = Board.goal(4)
        for _ in range(rng.randint(5, 30)):
            board = rng.choice(board.neighbors())
        assert run(board, heuristic, "pdb").moves == astar(board, "linear-conflict").moves
