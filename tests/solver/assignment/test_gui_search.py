"""The game's searches without a display: the background solve (progress, cancel, the solver's
own answer), Shuffle's boards, the A* step-through, and Undo, Hint and the timer in the model."""

from __future__ import annotations

import random
import threading
import time
from collections import deque

import pytest

from solver.assignment.desktop.gui_boards import (
    board_at_depth,
    depth_limit,
    exact_board_at_depth,
    random_board,
)
from solver.assignment.desktop.gui_model import SOLVED, PuzzleModel
from solver.assignment.desktop.gui_solver import FIRST_BUDGET, GROWTH, Job, search
from solver.assignment.desktop.gui_stepper import AStarStepper
from solver.board import Board, Move
from solver.errors import SearchLimitError
from solver.search.result import SearchResult
from solver.solve import solve


def bfs_depths(n: int) -> dict[Board, int]:
    """Every solvable board's distance to the goal, by our own breadth-first search (2x2 and 3x3)."""
    depths = {Board.goal(n): 0}
    queue = deque([Board.goal(n)])
    while queue:
        board = queue.popleft()
        for _, child in board.successors():
            if child not in depths:
                depths[child] = depths[board] + 1
                queue.append(child)
    return depths


@pytest.fixture(scope="module")
def depths3(table3: dict[tuple[int, ...], int]) -> dict[Board, int]:
    """The session's 3×3 distance table (tests/solver/conftest.py), by board: no second BFS."""
    return {Board(tiles, 3): depth for tiles, depth in table3.items()}


# --------------------------------------------------------------------------- the background solve
class FakeSolve:
    """A solver that runs out of budget ``fails`` times (each time reaching a higher bound), then answers."""

    def __init__(self, fails: int, answer: SearchResult | None = None, pause: float = 0.0) -> None:
        self.fails, self.answer, self.pause, self.budgets = fails, answer, pause, []

    def __call__(self, board: Board, node_limit: int) -> SearchResult:
        self.budgets.append(node_limit)
        time.sleep(self.pause)
        if len(self.budgets) <= self.fails:
            raise SearchLimitError("fake", node_limit, node_limit + 1, 40 + 2 * len(self.budgets))
        assert self.answer is not None
        return self.answer


def wait(job: Job, seconds: float = 60) -> None:
    job.thread.join(seconds)
    assert job.done


def test_the_search_grows_its_budget_and_reports_progress_until_it_answers() -> None:
    answer = solve(Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8]))
    fake = FakeSolve(3, answer)
    job = Job(lambda job: search(answer.path[0], job, fake))
    wait(job)
    assert job.result is answer and job.error is None
    assert fake.budgets == [FIRST_BUDGET * GROWTH ** i for i in range(4)]
    searched = sum(b + 1 for b in fake.budgets[:3])
    assert (job.progress.searched, job.progress.at_least) == (searched, 46)
    assert f"{searched:,} positions, the answer is at least 46 moves" in job.progress.label


def test_cancel_stops_the_search_at_its_next_budget_and_drops_the_answer() -> None:
    fake = FakeSolve(1000, pause=0.05)
    job = Job(lambda job: search(Board.goal(4), job, fake))
    time.sleep(0.12)
    job.cancel()
    wait(job, 5)
    assert job.result is None and len(fake.budgets) < 10


def test_a_board_the_solver_refuses_is_a_message() -> None:
    def refuse(board: Board, node_limit: int) -> SearchResult:
        raise ValueError("pattern databases exist for 4x4 and 5x5 only")

    job = Job(lambda job: search(Board.goal(3), job, refuse))
    wait(job)
    assert job.error == "pattern databases exist for 4x4 and 5x5 only" and job.result is None


def test_the_real_search_gives_the_solvers_optimal_answer_on_an_80_move_board() -> None:
    board = Board.from_tiles([0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1])
    job = Job(lambda job: search(board, job))
    wait(job, 300)
    result = job.result
    assert isinstance(result, SearchResult) and result.moves == 80 and result.path[-1].is_goal()
    assert all(a.move_to(b) is not None for a, b in zip(result.path, result.path[1:]))
    assert job.progress.at_least >= 70  # it reported the bounds it reached on the way


# --------------------------------------------------------------------------- Shuffle's boards
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_boards_are_solvable_never_solved_and_spread(n: int) -> None:
    rng = random.Random(4)
    boards = [random_board(n, rng) for _ in range(200)]
    assert all(b.is_solvable() and not b.is_goal() for b in boards)
    assert len(set(boards)) > (10 if n == 2 else 190)  # 2x2 has only 11 boards besides the goal


def test_3x3_boards_of_every_depth_have_that_optimal_depth(depths3: dict[Board, int]) -> None:
    rng = random.Random(2)
    for depth in range(1, depth_limit(3) + 1):
        boards = {exact_board_at_depth(3, depth, rng) for _ in range(3)}
        assert {depths3[b] for b in boards} == {depth}
    assert {bfs_depths(2)[exact_board_at_depth(2, 6, rng)]} == {6}


def test_4x4_boards_of_a_chosen_depth_have_that_optimal_depth() -> None:
    for depth in (1, 17, 44):
        board = board_at_depth(4, depth, random.Random(depth), solve)
        assert board is not None and solve(board).moves == depth


@pytest.mark.parametrize(("n", "depth"), [(3, 0), (3, 32), (4, 65), (5, 10)])
def test_a_depth_out_of_range_is_refused(n: int, depth: int) -> None:
    with pytest.raises(ValueError, match="shuffled"):
        board_at_depth(n, depth, random.Random(1), solve)


# --------------------------------------------------------------------------- A* step by step
@pytest.mark.parametrize("heuristic", ["manhattan", "hamming"])
def test_stepping_a_star_expands_in_f_order_and_ends_at_the_optimum(heuristic: str,
                                                                    depths3: dict[Board, int]) -> None:
    rng = random.Random(heuristic)
    for board in rng.sample(sorted(depths3, key=lambda b: b.tiles), 12):
        stepper = AStarStepper(board, heuristic)
        expansions = []
        while (expansion := stepper.step()) is not None:
            expansions.append(expansion)
        last = expansions[-1]
        assert last.goal and last.g == depths3[board] and stepper.finished
        assert [e.expanded for e in expansions] == list(range(1, len(expansions) + 1))
        for e in expansions:
            h = e.board.manhattan() if heuristic == "manhattan" else e.board.hamming()
            assert (e.h, e.f) == (h, e.g + h)
            assert e.g >= depths3[board] - depths3[e.board]  # g is a real route's length from the start
        fs = [e.f for e in expansions]
        assert fs == sorted(fs)  # a consistent heuristic: A* expands in non-decreasing f
        path = stepper.path()
        assert path[0] == board and path[-1].is_goal() and len(path) == last.g + 1


def test_the_frontier_counts_the_boards_waiting() -> None:
    stepper = AStarStepper(Board.from_tiles([1, 2, 3, 4, 0, 5, 7, 8, 6]))
    first = stepper.step()
    assert first is not None and (first.g, first.frontier, first.expanded) == (0, 4, 1)  # the blank's 4 neighbours
    second = stepper.step()
    assert second is not None and second.g == 1 and second.frontier == 3 + 2  # one left the frontier, 2 new ones


# --------------------------------------------------------------------------- Undo, Hint, the timer
class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_undo_takes_moves_back_and_uncounts_them() -> None:
    start = Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])
    model = PuzzleModel(board=start)
    assert model.undo() is None
    model.move_blank(Move.UP)
    model.move_blank(Move.LEFT)
    assert model.moves_made == 2
    assert model.undo() is Move.RIGHT and model.board == start.apply(Move.UP) and model.moves_made == 1
    assert model.undo() is Move.DOWN and model.board == start and model.moves_made == 0
    assert model.undo() is None and model.message == "Undone: 0 moves"


def test_the_timer_runs_from_the_first_move_to_the_goal() -> None:
    clock = Clock()
    model = PuzzleModel(board=Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8]), clock=clock)
    clock.now += 30
    assert model.timer_label == "0:00"  # not started before the first move
    model.move_blank(Move.DOWN)
    clock.now += 65
    assert model.timer_label == "1:05"
    model.move_blank(Move.RIGHT)
    assert model.kind == SOLVED
    clock.now += 100
    assert model.timer_label == "1:05"  # stopped at the goal
    model.set_custom("1 2 3 4 5 6 0 7 8")
    assert model.timer_label == "0:00" and model.moves_made == 0


def test_a_hint_names_the_first_move_of_an_optimal_solution(depths3: dict[Board, int]) -> None:
    board = Board.from_tiles([4, 1, 3, 7, 2, 6, 0, 5, 8])
    model = PuzzleModel(board=board)
    path = solve(board).path
    move = model.hint(path)
    assert move is not None and depths3[board.apply(move)] == depths3[board] - 1
    assert model.message.startswith(f"Hint: slide tile {board.tiles[path[1].blank]} (the blank moves {move.label})")
    assert model.hint(solve(Board.goal(3)).path) is None  # nothing to hint on a solved board
    assert model.board == board  # a hint does not move


def test_jobs_run_off_the_calling_thread() -> None:
    seen = []
    job = Job(lambda job: seen.append(threading.current_thread().name))
    wait(job)
    assert seen == ["npuzzle-solve"]


def test_garbage_left_by_the_window_is_never_collected_in_a_search_thread():
    """Tcl aborts the process when a Tk object is freed outside the thread that made it, and the
    cyclic collector runs in whichever thread allocates: a search thread allocating heavily once
    collected an old window's cycle and killed the test run. Collection waits for the window's thread."""
    import gc

    freed_in: list[str] = []

    class TkLike:
        def __del__(self) -> None:
            freed_in.append(threading.current_thread().name)

    def churn(job: Job) -> int:  # allocates far past every collection threshold
        return sum(len([[i] for i in range(1000)]) for _ in range(300))

    cycle = TkLike()
    cycle.me = cycle  # only the cyclic collector can free it
    gc.collect()
    del cycle
    job = Job(churn)
    job.thread.join(timeout=60)
    assert job.result == 300_000
    assert job.done  # read in this thread: collection resumes here
    gc.collect()
    assert freed_in and "npuzzle-solve" not in freed_in
    assert gc.isenabled()
