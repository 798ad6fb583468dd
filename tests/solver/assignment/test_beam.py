"""Local beam search: legal paths, never shorter than optimal, honest failure, limits, determinism."""

from __future__ import annotations

import random

import pytest

from solver.assignment.beam import BEAM_EMPTY, SOLVED, UNSOLVABLE, beam_search
from solver.board import Board
from solver.errors import SearchLimitError
from tests.solver.helpers import assert_legal_path

# Width 1 (greedy descent on Manhattan) walks into a dead end from this board: every
# child of its last board had been seen, although the board is solvable.
GREEDY_DEAD_END = Board((2, 4, 3, 7, 1, 6, 5, 8, 0), 3)


def boards(table: dict[tuple[int, ...], int], count: int, seed: int, max_distance: int = 31) -> list[Board]:
    rng = random.Random(seed)
    pool = sorted(t for t, d in table.items() if d <= max_distance)
    return [Board(t, 3) for t in rng.sample(pool, count)]


@pytest.mark.parametrize("width", [1, 3, 10, 100])
def test_solved_paths_are_legal_and_never_beat_the_optimum(width: int, table3: dict[tuple[int, ...], int]) -> None:
    solved = 0
    for board in boards(table3, 40, seed=width):
        result = beam_search(board, width)
        assert result.outcome in (SOLVED, BEAM_EMPTY)
        assert result.width == width and result.algorithm == "beam" and result.heuristic == "manhattan"
        if result.outcome == SOLVED:
            solved += 1
            assert_legal_path(result.path, board)
            assert result.moves >= table3[board.tiles]
        else:
            assert result.path is None and result.failed
    assert solved > 0


def test_an_unbounded_beam_is_breadth_first_and_optimal(table3: dict[tuple[int, ...], int]) -> None:
    for board in boards(table3, 15, seed=1, max_distance=14):
        result = beam_search(board, width=10**6)
        assert result.moves == table3[board.tiles]


def test_the_beam_can_empty_on_a_solvable_board() -> None:
    assert GREEDY_DEAD_END.is_solvable()
    result = beam_search(GREEDY_DEAD_END, width=1)
    assert result.outcome == BEAM_EMPTY and result.failed
    assert result.path is None and result.moves == -1
    assert result.expanded == result.levels > 0
    assert beam_search(GREEDY_DEAD_END, width=4).outcome == SOLVED


def test_unsolvable_boards_are_recognised_without_searching() -> None:
    result = beam_search(Board.from_tiles([1, 2, 3, 4, 5, 6, 8, 7, 0]), width=5)
    assert result.outcome == UNSOLVABLE and not result.failed
    assert result.path is None and result.expanded == 0


def test_the_goal_is_solved_in_zero_moves() -> None:
    result = beam_search(Board.goal(4), width=2)
    assert result.outcome == SOLVED and result.moves == 0 and result.expanded == 0


def test_node_limit_stops_the_search() -> None:
    board = Board((8, 6, 7, 2, 5, 4, 3, 0, 1), 3)
    with pytest.raises(SearchLimitError) as caught:
        beam_search(board, width=50, node_limit=30)
    assert caught.value.limit == 30 and caught.value.expanded == 31


def test_results_are_deterministic(table3: dict[tuple[int, ...], int]) -> None:
    for board in boards(table3, 10, seed=7):
        first, second = beam_search(board, 3), beam_search(board, 3)
        assert (first.path, first.expanded, first.generated) == (second.path, second.expanded, second.generated)


@pytest.mark.parametrize("width", [0, -2])
def test_width_must_be_positive(width: int) -> None:
    with pytest.raises(ValueError, match="beam width must be at least 1"):
        beam_search(Board.goal(3), width)


def test_works_on_larger_boards() -> None:
    rng = random.Random(4)
    board = Board.goal(4)
    for _ in range(40):
        board = rng.choice(board.neighbors())
    result = beam_search(board, width=20)
    assert result.outcome == SOLVED
    assert_legal_path(result.path, board)
