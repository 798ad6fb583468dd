"""A*: optimal on every board we can check exhaustively, deterministic, bounded, silent."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.astar import HEURISTICS, astar
from tests.solver.helpers import assert_legal_path, random_solvable
from tests.support import examples


def test_astar_is_optimal_on_3x3_boards_of_every_depth(table3):
    # Boards drawn per depth, not uniformly: 1,000 uniform boards (this test's old form, 4x the time) are
    # mostly 18-26 moves deep and hold about one of the 223 boards 30-31 moves deep, nor the shallow ones.
    # 8 of each depth 0-31 (233 boards) cover every depth; the thorough profile draws 40 of each.
    by_depth = defaultdict(list)
    for tiles, depth in table3.items():
        by_depth[depth].append(tiles)
    rng = random.Random(2026)
    per_depth = examples(ci=8, thorough=40)
    assert sorted(by_depth) == list(range(32))
    for depth, boards in sorted(by_depth.items()):
        for tiles in rng.sample(sorted(boards), min(per_depth, len(boards))):
            board = Board(tiles, 3)
            result = astar(board, "linear-conflict")
            assert_legal_path(result.path, board)
            assert result.moves == depth


@pytest.mark.parametrize("heuristic", sorted(HEURISTICS))
def test_every_heuristic_gives_optimal_paths(heuristic, table3):
    rng = random.Random(heuristic)
    for _ in range(25):
        board = random_solvable(rng, 3)
        assert astar(board, heuristic).moves == table3[board.tiles]


def test_all_2x2_boards(table2):
    for tiles, distance in table2.items():
        result = astar(Board(tiles, 2))
        assert result.moves == distance
        assert_legal_path(result.path, Board(tiles, 2))


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(range(9))))
def test_heuristics_never_overestimate(table3, tiles):
    board = Board(tuple(tiles), 3)
    if board.tiles in table3:
        for name, h in HEURISTICS.items():
            assert h(board) <= table3[board.tiles], name


def test_same_input_same_path():
    board = Board.from_tiles([8, 6, 7, 2, 5, 4, 3, 0, 1])  # a 31-move position: many optimal paths
    first = astar(board, "manhattan")
    assert first.moves == 31
    assert astar(board, "manhattan").path == first.path


def test_counters_are_reported():
    result = astar(Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8]))
    assert result.moves == 2 and result.expanded >= 2 and result.generated >= result.expanded
    assert result.seconds >= 0 and result.algorithm == "astar"
    assert [m.label for m in result.move_list()] == ["down", "right"]


def test_unsolvable_board_gives_no_path():
    result = astar(Board.from_tiles([1, 2, 3, 4, 5, 6, 8, 7, 0]))
    assert result.path is None and result.moves == -1 and not result.solvable


def test_node_limit_stops_with_a_clear_message():
    with pytest.raises(SearchLimitError, match=r"node limit 50\b"):
        astar(Board.from_tiles([8, 6, 7, 2, 5, 4, 3, 0, 1]), "hamming", node_limit=50)


def test_4x4_scrambles_are_solved_no_longer_than_the_scramble():
    rng = random.Random(4)
    for length in (10, 20, 30):
        board = Board.goal(4)
        for _ in range(length):
            board = rng.choice(board.neighbors())
        result = astar(board, "linear-conflict")
        assert_legal_path(result.path, board)
        assert result.moves <= length and result.moves % 2 == length % 2
