"""``python -m solver experiment``: the command sheet's experiments on the 8-puzzle, measured.

The sheet asks how the fraction of solvable puzzles varies with the ``maxNodes`` limit,
which A* heuristic is better, how the solution length varies across the three methods,
what fraction each method solves, and which is better in time and in space. From one seed
this draws boards at every optimal depth asked for (2 to 31 by default, the whole range of
the 8-puzzle: the exact distance table gives each board's depth), and searches each one
with every method (A* h1, A* h2, beam search of each width) under the largest node limit,
recording for each search whether it reached the goal, the moves, the nodes expanded, the
wall time and the peak memory (``tracemalloc``, in a second, separate run so the time is
not inflated by tracing). The tables and the figure (:mod:`solver.assignment.experiment_report`)
are computed from those records only.

A search succeeds under a smaller limit exactly when its full run expanded no more nodes,
because the searches are deterministic; so each board is searched once per method.
"""

from __future__ import annotations

import math
import random
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.assignment.beam import SOLVED, beam_search
from solver.assignment.goals import Goal
from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.exact import UNREACHABLE, exact_table
from solver.solve import solve

DEFAULT_DEPTHS = tuple(range(2, 32))
DEFAULT_LIMITS = (30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
DEFAULT_WIDTHS = (1, 3, 10, 50)
HEURISTICS = {"A* h1": "hamming", "A* h2": "manhattan"}


@dataclass(frozen=True)
class Config:
    """What to measure: ``boards`` boards from ``seed``, spread evenly over the optimal ``depths``."""

    seed: int = 1
    boards: int = 150
    depths: tuple[int, ...] = DEFAULT_DEPTHS
    node_limits: tuple[int, ...] = DEFAULT_LIMITS
    widths: tuple[int, ...] = DEFAULT_WIDTHS
    goal: Goal = Goal.BLANK_FIRST
    memory: bool = True

    @property
    def cap(self) -> int:
        return max(self.node_limits)

    def methods(self) -> list[str]:
        return list(HEURISTICS) + [f"beam {w}" for w in self.widths]


@dataclass(frozen=True)
class Run:
    """One search of one board under the cap.

    ``solved``: it reached the goal; ``moves``: the path's length when solved; ``expanded``:
    nodes expanded, ``None`` when the cap stopped it; ``seconds``: wall time; ``peak_bytes``:
    the most memory it held at once (``None`` when memory was not measured).
    """

    solved: bool
    moves: int | None
    expanded: int | None
    seconds: float
    peak_bytes: int | None = None


@dataclass(frozen=True)
class Trial:
    """One board (as written under the configured goal), its optimal depth and a run per method."""

    board: Board
    depth: int
    runs: dict[str, Run] = field(default_factory=dict)


def unrank(rank: int, size: int) -> tuple[int, ...]:
    """The permutation of ``0..size-1`` with this lexicographic rank (inverse of :func:`solver.search.exact.rank`).

    >>> unrank(0, 3), unrank(5, 3)
    ((0, 1, 2), (2, 1, 0))
    """
    items = list(range(size))
    out = []
    for place in range(size, 0, -1):
        index, rank = divmod(rank, math.factorial(place - 1))
        out.append(items.pop(index))
    return tuple(out)


def study_boards(config: Config) -> list[tuple[Board, int]]:
    """The boards of the study with their optimal depths: board ``i`` has depth ``depths[i % len]``,
    drawn uniformly (without repeats while the depth has enough boards) among all boards of
    that depth; each is written under the configured goal.

    >>> [(b.tiles, d) for b, d in study_boards(Config(seed=3, boards=2, depths=(1, 31), goal=Goal.BLANK_LAST))]
    [((1, 2, 3, 4, 5, 0, 7, 8, 6), 1), ((6, 4, 7, 8, 5, 0, 3, 2, 1), 31)]
    """
    if not config.depths or min(config.depths) < 0 or max(config.depths) > 31:
        raise ValueError(f"depths must lie in 0..31 (the 8-puzzle's range), found {config.depths}")
    wanted = {d: sum(1 for i in range(config.boards) if config.depths[i % len(config.depths)] == d)
              for d in set(config.depths)}
    ranks: dict[int, list[int]] = {d: [] for d in wanted}
    for rank, code in enumerate(exact_table(3)):
        if code != UNREACHABLE and code & 31 in ranks:
            ranks[code & 31].append(rank)
    rng = random.Random(config.seed)
    drawn: dict[int, list[int]] = {}
    for depth in sorted(wanted):
        pool, count = ranks[depth], wanted[depth]
        drawn[depth] = rng.sample(pool, min(count, len(pool))) + rng.choices(pool, k=max(0, count - len(pool)))
    out = []
    for i in range(config.boards):
        depth = config.depths[i % len(config.depths)]
        standard = Board(unrank(drawn[depth].pop(0), 9), 3)
        out.append((standard.standardized(config.goal.blank_first), depth))
    return out


def _searches(start: Board, config: Config) -> dict[str, Callable[[], tuple[bool, int | None, int]]]:
    """Each method as a call returning (reached the goal, moves, expanded); raises SearchLimitError past the cap."""
    def astar(heuristic: str) -> Callable[[], tuple[bool, int | None, int]]:
        def run() -> tuple[bool, int | None, int]:
            result = solve(start, "astar", heuristic, config.cap)
            return True, result.moves, result.expanded
        return run

    def beam(width: int) -> Callable[[], tuple[bool, int | None, int]]:
        def run() -> tuple[bool, int | None, int]:
            result = beam_search(start, width, config.cap)
            solved = result.outcome == SOLVED
            return solved, result.moves if solved else None, result.expanded
        return run

    searches = {name: astar(heuristic) for name, heuristic in HEURISTICS.items()}
    searches.update({f"beam {w}": beam(w) for w in config.widths})
    return searches


def _timed(search: Callable[[], tuple[bool, int | None, int]]) -> Run:
    began = time.perf_counter()
    try:
        solved, moves, expanded = search()
    except SearchLimitError:
        return Run(False, None, None, time.perf_counter() - began)
    return Run(solved, moves, expanded, time.perf_counter() - began)


def _peak_bytes(search: Callable[[], object]) -> int:
    """The most memory the search held at once, above what was held when it started."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        try:
            search()
        except SearchLimitError:
            pass
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def run_experiment(config: Config) -> list[Trial]:
    """Measure every board of the study with every method (deterministic but for times and memory)."""
    trials = []
    for board, depth in study_boards(config):
        runs = {}
        for name, search in _searches(config.goal.to_standard(board), config).items():
            run = _timed(search)
            if config.memory:
                run = Run(run.solved, run.moves, run.expanded, run.seconds, _peak_bytes(search))
            runs[name] = run
        trials.append(Trial(board, depth, runs))
    return trials


# --------------------------------------------------------------------------- command
