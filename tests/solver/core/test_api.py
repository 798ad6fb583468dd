"""The student-facing API: solver.Board and solver.Solver, with the sheets' names."""

from __future__ import annotations

import random

import pytest

import solver
from solver import Board, Solver


def sample_boards(table: dict[tuple[int, ...], int], count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return rng.sample(sorted(table), count)


def test_package_exports_the_sheet_names() -> None:
    assert solver.Board is Board
    assert solver.Solver is Solver
    assert {"Board", "Solver"} <= set(solver.__all__)


def test_solver_moves_are_the_true_distances(table3: dict[tuple[int, ...], int]) -> None:
    for tiles in sample_boards(table3, 25, seed=8):
        result = Solver(Board(tiles, 3))
        assert result.is_solvable()
        assert result.moves() == table3[tiles]
        path = result.solution()
        assert path[0] == Board(tiles, 3) and path[-1].is_goal()
        assert len(path) == result.moves() + 1
        assert all(a.move_to(b) is not None for a, b in zip(path, path[1:]))


def test_exactly_one_of_a_board_and_its_twin_is_solvable(table3: dict[tuple[int, ...], int]) -> None:
    for tiles in sample_boards(table3, 10, seed=9):
        board = Board(tiles, 3)
        twin = Solver(board.twin())
        assert Solver(board).is_solvable() and not twin.is_solvable()
        assert twin.moves() == -1 and twin.solution() is None
        assert twin.get_moves() == -1 and twin.get_solution() is None


@pytest.mark.parametrize("n", [2, 3])
def test_goal_board_needs_no_moves(n: int) -> None:
    result = Solver(Board.goal(n))
    assert result.moves() == 0
    assert result.solution() == [Board.goal(n)]



@pytest.mark.parametrize("bad", [None, [1, 2, 3, 0], "1 2 3 0"])
def test_solver_refuses_anything_but_a_board(bad: object) -> None:
    with pytest.raises(TypeError, match="Solver needs a Board to solve, found"):
        Solver(bad)  # type: ignore[arg-type]


def test_cmpe160_aliases_agree_with_the_princeton_names(table3: dict[tuple[int, ...], int]) -> None:
    for tiles in sample_boards(table3, 20, seed=10):
        board = Board(tiles, 3)
        assert board.h() == board.manhattan()
        assert board.is_completed() == board.is_goal()
        assert board.get_adjacents() == board.neighbors()
        result = Solver(board)
        assert result.get_moves() == result.moves()
        assert result.get_solution() == result.solution()
    assert Board.goal(3).is_completed()


def test_board_str_is_the_output_format() -> None:
    assert str(Board.from_tiles([1, 2, 3, 0])) == "2\n1 2\n3 0"


def test_solution_is_a_fresh_list_each_time() -> None:
    result = Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8]))
    first = result.solution()
    first.clear()
    assert len(result.solution()) == 3
