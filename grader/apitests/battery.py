"""The battery the judge runs: the boards and answers it needs, computed here, never by the submission.

:class:`Battery` turns the test set's cases and the ``[api]`` settings into the settings the judge
(:mod:`grader.apitests.judge`) tests with, none of which a worker sees: the test names, the case files' boards
with their certified answers, random boards of known depth (every depth from 1 to ``max_depth`` on 3x3, read
off the exact distance table; short walks on 4x4 and 5x5, solved here by A*), the operation limits from the
reference A*'s counts.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import random
from collections.abc import Sequence
from typing import Any

from grader.testsets.apiconfig import ApiConfig
from grader.testsets.model import Case
from solver.board import Board
from solver.formats import parse_puzzle
from solver.search.exact import UNREACHABLE, exact_table
from solver.solve import solve

SLOW_TESTS = ("solver.moves.random", "solver.solution.random")
"""The tests that solve a board of every depth: they get ``solver_seconds``, not ``test_seconds``."""
COUNT_FILES = 8
COUNT_FACTOR = 4.0
"""A student's A* runs the twin in step with the board (twice the reference's work) and may tie-break
differently: four times the reference's calls, plus the first expansions, is the allowance."""
COUNT_SLACK = 64
LARGER_WALKS = ((4, 8), (4, 12), (5, 8), (5, 10))
"""(size, random-walk length) of the larger boards the solver tests draw."""


@functools.lru_cache(maxsize=1)
def _ranks_by_depth() -> dict[int, list[int]]:
    table = exact_table(3)
    by_depth: dict[int, list[int]] = {}
    for rank, code in enumerate(table):
        if code != UNREACHABLE:
            by_depth.setdefault(code & 31, []).append(rank)
    return by_depth


def _unrank(rank: int, size: int) -> tuple[int, ...]:
    """The permutation of ``0..size-1`` with this lexicographic rank (the inverse of ``exact.rank``)."""
    items = list(range(size))
    out = []
    for i in range(size, 0, -1):
        fact = 1
        for k in range(2, i):
            fact *= k
        index, rank = divmod(rank, fact)
        out.append(items.pop(index))
    return tuple(out)


def depth_boards(seed: int, max_depth: int, sizes: Sequence[int] = (3, 4, 5)) -> list[tuple[tuple[int, ...], int, int]]:
    """One random 3x3 board at each depth 1..max_depth, then short walks on 4x4 and 5x5: (tiles, n, moves).

    Only the sizes in ``sizes`` are drawn.
    """
    rng = random.Random(f"{seed}:depths")
    by_depth = _ranks_by_depth() if 3 in sizes else {}
    boards = [(_unrank(rng.choice(by_depth[d]), 9), 3, d) for d in range(1, max_depth + 1) if d in by_depth]
    for n, steps in LARGER_WALKS:
        if n not in sizes:
            continue
        board = Board.goal(n)
        previous = None
        for _ in range(steps):
            choices = [b for b in board.neighbors() if b != previous]
            previous, board = board, rng.choice(choices)
        boards.append((board.tiles, n, solve(board, "astar").moves))
    return boards


def unsolvable_boards(seed: int) -> list[tuple[tuple[int, ...], int]]:
    """A 2x2 and a 3x3 board a few moves from the goal with tiles 1 and 2 swapped: unsolvable, and with
    the usual twin (two tiles of the first row swapped) shallow, so a plain A* on the twin ends quickly."""
    rng = random.Random(f"{seed}:unsolvable")
    boards = []
    for n in (2, 3, 4):
        board, previous = Board.goal(n), None
        for _ in range(6):
            previous, board = board, rng.choice([b for b in board.neighbors() if b != previous])
        tiles = [2 if t == 1 else 1 if t == 2 else t for t in board.tiles]
        boards.append((tuple(tiles), n))
    return boards


def _grid(tiles: Sequence[int], n: int) -> list[list[int]]:
    return [list(tiles[r * n:(r + 1) * n]) for r in range(n)]


GENERATED_WALKS = ((2, 3), (2, 5), (3, 9), (3, 14), (4, 10), (4, 16))
"""(size, random-walk length) of the generated solvable boards every run's solver tests get, whatever cases the
test set has or selects (so a wrong isSolvable() on 2x2 boards cannot go unseen)."""


def generated_files(seed: int) -> list[dict[str, Any]]:
    """Solvable boards a short random walk from the goal, solved here, shaped like case files."""
    rng = random.Random(f"{seed}:generated")
    files = []
    for k, (n, steps) in enumerate(GENERATED_WALKS, 1):
        board, previous = Board.goal(n), None
        for _ in range(steps):
            previous, board = board, rng.choice([b for b in board.neighbors() if b != previous])
        files.append({"name": f"generated-{n}x{n}-board-{k}-seed-{seed}", "tiles": _grid(board.tiles, n),
                      "solvable": True, "moves": solve(board, "astar").moves})
    return files


def visible(cases: Sequence[Case]) -> list[Case]:
    """The cases a student may see: a hidden case's file, name or answer never enters a run (nor the judge's
    messages, which every student reads)."""
    return [case for case in cases if case.visibility == "visible"]


def case_files(cases: Sequence[Case]) -> list[dict[str, Any]]:
    """The test set's visible boards with their answers, as the judge reads them."""
    files = []
    for case in visible(cases):
        board = parse_puzzle(case.input_path.read_bytes(), str(case.input_path))
        files.append({"name": case.input_path.name, "tiles": _grid(board.tiles, board.n), "solvable": case.solvable,
                      "moves": case.optimal_moves})
    return files


PEAK_DEPTHS = (14, 18, 22)
"""Depths of the 3x3 boards the peak-memory test solves: deep enough that the search, not the
interpreter, holds the memory; shallow enough for a plain A* under tracemalloc."""


def _peak_boards(config: ApiConfig) -> list[dict[str, Any]]:
    """The peak-memory test's boards, apart from the depth boards (which lanes share out)."""
    boards = depth_boards(config.seed + 1, max(PEAK_DEPTHS), (3,))
    return [{"tiles": _grid(t, n), "moves": m} for t, n, m in boards if n == 3 and m in PEAK_DEPTHS]


def princeton_count(start: Board) -> tuple[int, int]:
    """(boards built, priority-queue operations) of a Princeton-style A* for ``start``: a tree search (no
    closed set) with the critical optimization, one node per board, the initial board's search alone (the
    twin's is allowed for by :data:`COUNT_FACTOR`). Each board costs one Board(), one manhattan() and one
    insert; each expanded node (and the goal's) one delete-the-minimum."""
    goal = Board.goal(start.n).tiles
    counter = itertools.count()
    frontier: list[tuple[int, int, int, Board, Board | None]] = [(start.manhattan(), next(counter), 0, start, None)]
    built, removed = 1, 0
    while frontier:
        _, _, moves, board, previous = heapq.heappop(frontier)
        removed += 1
        if board.tiles == goal:
            return built, built + removed
        for child in board.neighbors():
            if previous is not None and child.tiles == previous.tiles:
                continue
            built += 1
            heapq.heappush(frontier, (moves + 1 + child.manhattan(), next(counter), moves + 1, child, board))
    raise AssertionError("the count reference needs a solvable board")


def _count_limits(files: list[dict[str, Any]], max_moves: int) -> dict[str, dict[str, int]]:
    """Per counted file, the most Board(), equals(), manhattan() calls and priority-queue operations allowed
    (the harness counts them)."""
    limits = {}
    counted = [f for f in files if f["solvable"] and f["moves"] is not None and f["moves"] <= max_moves
               and len(f["tiles"]) <= 4][:COUNT_FILES]
    for entry in counted:
        reference, queue_ops = princeton_count(Board.from_rows(entry["tiles"]))
        allowed = int(COUNT_FACTOR * reference) + COUNT_SLACK
        limits[entry["name"]] = {"init": allowed, "equals": allowed, "manhattan": allowed,
                                 "reference_init": reference, "reference_equals": reference,
                                 "reference_manhattan": reference,
                                 "queue": int(COUNT_FACTOR * queue_ops) + 2 * COUNT_SLACK, "reference_queue": queue_ops}
    return limits


class Battery:
    """The battery of one grading run: computed once, then handed to every submission's judge."""

    def __init__(self, cases: Sequence[Case], config: ApiConfig) -> None:
        generated = generated_files(config.seed)
        files = case_files([c for c in cases if c.n <= 10]) + generated
        solver_files = [f for f in files if len(f["tiles"]) in config.solver_sizes and (not f["solvable"] or (
            f["moves"] is not None and f["moves"] <= config.solver_max_moves))]
        self.common: dict[str, Any] = {
            "seed": config.seed,
            "files": files,
            "generated": generated,
            "max_file_moves": config.solver_max_moves,
            "depth_boards": [{"tiles": _grid(t, n), "moves": m}
                             for t, n, m in depth_boards(config.seed, config.max_depth, config.solver_sizes)],
            "solver_sizes": list(config.solver_sizes),
            "peak_boards": _peak_boards(config),
            "unsolvable_boards": [_grid(t, n) for t, n in unsolvable_boards(config.seed)],
            "sizes": list(config.sizes),
            "styles": list(config.python_names),
            "board_classes": list(config.board_classes),
            "solver_classes": list(config.solver_classes),
            "modules": list(config.modules),
            "test_seconds": config.test_seconds,
            "slow_tests": {name: config.solver_seconds for name in SLOW_TESTS},
            "count_files": COUNT_FILES,
            "count_factor": COUNT_FACTOR,
            "count_limits": _count_limits(solver_files, config.solver_max_moves),
        }

    def spec(self, names: Sequence[str], depth_boards: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The judge's settings for these tests; ``depth_boards``
        replaces the boards of known depth (a lane's share of them, :func:`share_depth_boards`)."""
        spec = {**self.common, "tests": list(names)}
        if depth_boards is not None:
            spec["depth_boards"] = list(depth_boards)
        return spec


DEPTH_COST_BASE = 1.7
"""A plain A*'s work grows about this much per move of depth (3x3, Manhattan): the weight a board's
depth gives it when the boards are shared out between harness runs."""


def share_depth_boards(boards: Sequence[dict[str, Any]], lanes: int) -> list[list[dict[str, Any]]]:
    """``boards`` dealt into ``lanes`` lists of about equal solving work (the deepest first, each to the
    lightest lane so far; ties to the lowest lane), each list in the original order. Deterministic."""
    if lanes <= 1 or len(boards) < 2:
        return [list(boards)]
    loads = [0.0] * lanes
    chosen: list[list[int]] = [[] for _ in range(lanes)]
    for index in sorted(range(len(boards)), key=lambda i: (-boards[i]["moves"], i)):
        lane = min(range(lanes), key=lambda k: (loads[k], k))
        loads[lane] += DEPTH_COST_BASE ** boards[index]["moves"]
        chosen[lane].append(index)
    return [[boards[i] for i in sorted(indices)] for indices in chosen if indices]
