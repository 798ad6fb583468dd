"""The API tests by name: their group, what they check, and how the part's points are shared out.

The names are the protocol between the grader and the harnesses (``harness/``): a harness
runs the tests it is asked for, by name, and the grader accepts a result only for a name
it asked for. The groups and titles follow the Princeton assessment's reports.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from grader.model.apiresult import Group
from grader.testsets.apiconfig import ApiConfig


@dataclass(frozen=True)
class ApiTest:
    name: str
    group: Group
    title: str
    languages: tuple[str, ...] = ("java", "python")


TESTS: tuple[ApiTest, ...] = (
    ApiTest("api.conformance", "api", "the public constructors and methods match the sheet"),
    ApiTest("board.hamming.files", "correctness", "hamming() with the test set's files"),
    ApiTest("board.hamming.random", "correctness", "hamming() with random n-by-n boards"),
    ApiTest("board.manhattan.files", "correctness", "manhattan() with the test set's files"),
    ApiTest("board.manhattan.random", "correctness", "manhattan() with random n-by-n boards"),
    ApiTest("board.dimension", "correctness", "dimension() with random n-by-n boards"),
    ApiTest("board.tostring.files", "correctness", "toString() with the test set's files"),
    ApiTest("board.tostring.random", "correctness", "toString() with random n-by-n boards"),
    ApiTest("board.neighbors.files", "correctness", "neighbors() with the test set's files"),
    ApiTest("board.neighbors.random", "correctness", "neighbors() with random n-by-n boards"),
    ApiTest("board.neighbors-of-neighbors", "correctness", "neighbors() of neighbors()"),
    ApiTest("board.twin.files", "correctness", "twin() with the test set's files"),
    ApiTest("board.twin.random", "correctness", "twin() with random n-by-n boards"),
    ApiTest("board.isgoal.files", "correctness", "isGoal() with the test set's files"),
    ApiTest("board.isgoal.boards", "correctness", "isGoal() on goal boards and boards one move away"),
    ApiTest("board.two-at-once", "correctness", "two Board objects at the same time"),
    ApiTest("board.equals.properties", "correctness", "equals(): reflexive, symmetric, transitive, null, other types"),
    ApiTest("board.equals.random", "correctness", "equals() on random n-by-n boards"),
    ApiTest("board.equals.sizes", "correctness", "equals() when the board sizes differ"),
    ApiTest("board.immutable.array", "correctness", "changing the argument array after construction changes nothing"),
    ApiTest("board.call-order", "correctness", "results do not depend on the order of the calls"),
    ApiTest("board.derived", "correctness", "dimension(), hamming(), manhattan() of the kth neighbour and twin"),
    ApiTest("solver.moves.files", "correctness", "moves() with the test set's files"),
    ApiTest("solver.solution.files", "correctness", "solution() with the test set's files"),
    ApiTest("solver.moves.random", "correctness", "moves() on random boards of known depth"),
    ApiTest("solver.solution.random", "correctness", "solution() on random boards of known depth"),
    ApiTest("solver.issolvable", "correctness", "isSolvable() on solvable and unsolvable boards"),
    ApiTest("solver.unsolvable", "correctness", "moves() is -1 and solution() is null on unsolvable boards"),
    ApiTest("solver.null", "correctness",
            "Solver(null) throws IllegalArgumentException (Python: ValueError/TypeError)"),
    ApiTest("solver.two-at-once", "correctness", "two Solver objects at the same time"),
    ApiTest("solver.call-order", "correctness", "Solver results do not depend on the order of the calls"),
    ApiTest("board.memory", "memory", "a Board's deep size (Java: at most 4n^2 + 32n + 64 bytes)"),
    ApiTest("solver.memory", "memory", "a solved Solver keeps about its solution, not its search (deep size)"),
    ApiTest("solver.peak-memory", "memory",
            "a solve's peak memory against the sheet's A* (Python: tracemalloc; Java: the heap after collections)"),
    ApiTest("timing.unused-methods", "timing", "the solver never calls hamming() or toString()"),
    ApiTest("timing.critical-optimization", "timing",
            "equals() is called only with a neighbour of a neighbour (the critical optimization)"),
    ApiTest("timing.counts", "timing",
            "Board(), equals(), manhattan() calls and priority-queue operations against the reference A*'s"),
)
BY_NAME = {test.name: test for test in TESTS}


@dataclass(frozen=True)
class Planned:
    """A test as graded for one submission: its points out of the part's."""

    test: ApiTest
    max_points: float


def plan(config: ApiConfig, language: str) -> tuple[Planned, ...]:
    """The tests a submission in ``language`` gets, with each one's share of ``config.points``.

    A group's weight is shared equally among its tests; groups with no test (all skipped)
    give their weight to the others, so the part is always worth ``config.points``.
    """
    chosen = [t for t in TESTS if language in t.languages
              and not any(fnmatch.fnmatchcase(t.name, pattern) for pattern in config.skip)]
    groups = {t.group for t in chosen}
    weight = sum(config.weight(g) for g in groups)
    planned = []
    for test in chosen:
        size = sum(1 for t in chosen if t.group == test.group)
        share = config.points * config.weight(test.group) / weight / size if weight else 0.0
        planned.append(Planned(test, share))
    return tuple(planned)
