"""The student-facing API, point by point against the sheets: Princeton's Board/Solver, CMPE 160's Puzzle/Solver."""

from __future__ import annotations

import itertools
import random
import tracemalloc
from pathlib import Path

import pytest

import solver
from solver import Board, Puzzle, Solver
from solver.cli import entry
from solver.errors import BoardSizeError
from solver.formats import parse_puzzle
from tests.support import shared_data

SHEET_EXAMPLE = [[8, 1, 3], [4, 0, 2], [7, 6, 5]]  # the Princeton sheet's example board


def sample_boards(table: dict[tuple[int, ...], int], count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return rng.sample(sorted(table), count)


def test_package_exports_the_sheet_names() -> None:
    assert solver.Board is Board and solver.Solver is Solver and solver.Puzzle is Puzzle
    assert {"Board", "Puzzle", "Solver"} <= set(solver.__all__)


# --------------------------------------------------------------------------- Princeton's Board
def test_board_from_a_2d_list_is_the_row_major_board() -> None:
    board = Board(SHEET_EXAMPLE)
    assert board.tiles == (8, 1, 3, 4, 0, 2, 7, 6, 5) and board.n == 3
    assert board == Board.from_tiles([8, 1, 3, 4, 0, 2, 7, 6, 5]) == Board.from_rows(SHEET_EXAMPLE)
    assert Board(((1, 2), (3, 0))).is_goal()
    rows = [list(row) for row in SHEET_EXAMPLE]
    copied = Board(rows)
    rows[0][0] = 5  # the board copied the tiles: changing the list later cannot change it
    assert copied == board


@pytest.mark.parametrize(("tiles", "error", "message"), [
    (None, TypeError, "Board needs an n-by-n grid of tiles (a list of n rows of n integers), found None"),
    ("1 2 3 0", TypeError, "found a value of type str"),
    (5, TypeError, "found a value of type int"),
    ([[1, 2, 3], [4, 0], [7, 8, 6]], ValueError, "row 2 has 2 tiles, expected 3 (the grid has 3 rows)"),
    ([[1, 2], [3, 0], [4, 5]], ValueError, "row 1 has 2 tiles, expected 3"),
    ([[1, 2], None], TypeError, "row 2 is None"),
    ([[1, 2], [3, "x"]], TypeError, "the tile at row 2, column 2 is 'x', not an integer"),
    ([[1, 2], [3, 3]], ValueError, "tile 3 appears twice"),
    ([[1, 2], [3, 4]], ValueError, "tile 4 is out of range 0..3"),
    ([[0]], ValueError, "with n >= 2, found 1 row"),
    ([], ValueError, "with n >= 2, found 0 rows"),
])
def test_board_refuses_none_ragged_and_bad_grids_with_a_clear_message(tiles, error, message) -> None:
    with pytest.raises(error) as caught:
        Board(tiles)
    assert message in str(caught.value)


def test_dimension_is_n() -> None:
    assert [Board.goal(n).dimension() for n in (2, 3, 4, 10)] == [2, 3, 4, 10]


def test_str_is_the_sheets_to_string() -> None:
    # Princeton: N, then each tile formatted "%2d " and a newline after each row.
    assert str(Board(SHEET_EXAMPLE)) == "3\n 8  1  3 \n 4  0  2 \n 7  6  5 \n"
    assert str(Board([[1, 0], [3, 2]])) == "2\n 1  0 \n 3  2 \n"
    twelve = str(Board.goal(12)).split("\n")
    assert len(twelve) == 14 and twelve[0] == "12" and twelve[-1] == ""
    assert twelve[12] == "133 134 135 136 137 138 139 140 141 142 143  0 "


def test_heuristics_goal_neighbors_and_equals_on_the_sheets_example() -> None:
    board = Board(SHEET_EXAMPLE)
    assert (board.hamming(), board.manhattan(), board.is_goal()) == (5, 10, False)
    assert sorted(b.tiles for b in board.neighbors()) == sorted([
        (8, 0, 3, 4, 1, 2, 7, 6, 5), (8, 1, 3, 4, 6, 2, 7, 0, 5),
        (8, 1, 3, 0, 4, 2, 7, 6, 5), (8, 1, 3, 4, 2, 0, 7, 6, 5)])
    assert board == Board(SHEET_EXAMPLE) and board != board.twin() and board != "not a board"
    assert len({board, Board(SHEET_EXAMPLE)}) == 1


@pytest.mark.parametrize(("rows", "twin"), [
    (SHEET_EXAMPLE, [[1, 8, 3], [4, 0, 2], [7, 6, 5]]),
    ([[1, 0, 3], [4, 2, 5], [7, 8, 6]], [[1, 0, 3], [2, 4, 5], [7, 8, 6]]),  # blank in row 1: swap in row 2
    ([[0, 1], [2, 3]], [[0, 1], [3, 2]]),
])
def test_twin_swaps_two_adjacent_non_blank_tiles_of_one_row(rows, twin) -> None:
    assert Board(rows).twin() == Board(twin)


def random_board(n: int, seed: int) -> Board:
    tiles = list(range(n * n))
    random.Random(seed).shuffle(tiles)
    return Board.from_tiles(tiles, n)


@pytest.mark.parametrize("n", [20, 127])
def test_large_boards_build_no_table_that_grows_with_their_size(n: int) -> None:
    # The Manhattan table the API used to build for each size held N^4 entries: 2 GB at 127x127 (1.3 MB
    # kept for good at 20x20). Above 5x5 every API method must stay within a few MB and keep nothing.
    board = random_board(n, seed=1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        answers = (board.manhattan(), board.hamming(), board.is_goal(), len(board.neighbors()),
                   board.twin().dimension(), board.is_solvable(), board.linear_conflict() >= board.manhattan())
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - before < 16 * 2 ** 20, f"peak {peak - before:,} bytes"
    assert kept - before < 64 * 2 ** 10, f"{kept - before:,} bytes kept after the calls"
    assert answers[0] == sum(abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n)
                             for i, t in enumerate(board.tiles) if t)
    assert answers[2:] == (False, len(board.neighbors()), n, answers[5], True)


def test_sizes_past_100_where_the_caller_asks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = 101
    tiles = list(range(1, n * n)) + [0]
    tiles[-2], tiles[-1] = 0, tiles[-2]  # one move from the goal
    text = f"{n}\n" + "\n".join(" ".join(map(str, tiles[r * n:(r + 1) * n])) for r in range(n)) + "\n"
    assert Board(tiles, n).manhattan() == 1
    with pytest.raises(BoardSizeError, match="from 2 to 100, found 101"):
        parse_puzzle(text)
    assert parse_puzzle(text, max_n=None) == Board(tuple(tiles), n)
    puzzle = tmp_path / "big.txt"
    puzzle.write_text(text)
    assert entry(["solve", str(puzzle)]) == 7
    assert entry(["solve", str(puzzle), "--max-size", "128", "-a", "astar", "-H", "manhattan"]) == 0
    assert capsys.readouterr().out.startswith("Minimum number of moves = 1\n101\n")


# --------------------------------------------------------------------------- Princeton's Solver
def test_solver_moves_are_the_true_distances(table3: dict[tuple[int, ...], int]) -> None:
    for tiles in sample_boards(table3, 25, seed=8):
        result = Solver(Board(tiles, 3))
        assert result.is_solvable()
        assert result.moves() == table3[tiles]
        path = result.solution()
        assert path[0] == Board(tiles, 3) and path[-1].is_goal()
        assert len(path) == result.moves() + 1
        assert all(a.move_to(b) is not None for a, b in itertools.pairwise(path))


def test_exactly_one_of_a_board_and_its_twin_is_solvable(table3: dict[tuple[int, ...], int]) -> None:
    for tiles in sample_boards(table3, 10, seed=9):
        board = Board(tiles, 3)
        twin = Solver(board.twin())
        assert Solver(board).is_solvable() and not twin.is_solvable()
        assert twin.moves() == -1 and twin.solution() is None
        assert twin.get_moves() == -1 and twin.get_solution() is None and twin.solve() is None


@pytest.mark.parametrize("n", [2, 3])
def test_goal_board_needs_no_moves(n: int) -> None:
    result = Solver(Board.goal(n))
    assert result.moves() == 0
    assert result.solution() == [Board.goal(n)]


@pytest.mark.parametrize("bad", [None, [1, 2, 3, 0], "1 2 3 0"])
def test_solver_refuses_anything_but_a_board(bad: object) -> None:
    with pytest.raises(TypeError, match="Solver needs a Board to solve, found"):
        Solver(bad)  # type: ignore[arg-type]


def test_solution_is_a_fresh_list_each_time() -> None:
    result = Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8]))
    first = result.solution()
    first.clear()
    assert len(result.solution()) == 3


# --------------------------------------------------------------------------- CMPE 160's Puzzle and Solver
def test_puzzle_is_the_board_with_the_courses_names_and_to_string(table3: dict[tuple[int, ...], int]) -> None:
    puzzle = Puzzle([[0, 1, 2], [3, 4, 5], [6, 7, 8]])  # the course's input1.txt
    assert isinstance(puzzle, Board) and puzzle == Board.from_tiles(range(9))
    assert hash(puzzle) == hash(Board(puzzle.tiles, 3))
    # The rows of the course's expected output files: a space before every tile, a newline after every row.
    assert str(puzzle) == "3\n 0 1 2\n 3 4 5\n 6 7 8\n"
    assert all(type(p) is Puzzle for p in puzzle.get_adjacents() + [puzzle.twin()])
    for tiles in sample_boards(table3, 20, seed=10):
        board = Puzzle(tiles, 3)
        assert board.h() == board.manhattan()
        assert board.is_completed() == board.is_goal()
        assert board.get_adjacents() == board.neighbors()
        result = Solver(board)
        assert result.get_moves() == result.moves() == table3[tiles]
        assert result.get_solution() == result.solution() == result.solve()
    assert Puzzle.goal(3).is_completed()


def test_cmpe160_solver_solve_returns_the_puzzles_of_the_solution() -> None:
    expected = shared_data("external-data", "cmpe160", "sample", "output4.txt").read_text().split("\n")
    start = parse_puzzle(shared_data("external-data", "cmpe160", "sample", "input4.txt").read_bytes())
    solver_ = Solver(Puzzle(start.tiles, start.n))
    path = solver_.solve()
    assert all(type(p) is Puzzle for p in path)
    assert expected[0].strip() == f"Minimum number of moves = {solver_.get_moves()}" == "Minimum number of moves = 18"
    assert expected[1:5] == str(path[0]).split("\n")[:4]  # the course's own first board, byte for byte


def test_cmpe160_preset_writes_the_courses_unsolvable_line(tmp_path: Path) -> None:
    source = shared_data("external-data", "cmpe160", "sample", "input.txt")
    expected = shared_data("external-data", "cmpe160", "sample", "output.txt").read_text().strip()
    assert entry(["solve", str(source), "-o", str(tmp_path / "course.txt"), "--preset", "cmpe160"]) == 0
    assert entry(["solve", str(source), "-o", str(tmp_path / "default.txt")]) == 0
    assert (tmp_path / "course.txt").read_text() == expected + "\n" == "No solution found.\n"
    assert (tmp_path / "default.txt").read_text() == "No solution possible\n"
