"""The game's solver: the command line's optimal method, run in a background thread that reports
its progress and can be cancelled. Free of Tk, so it is tested without a display.

:func:`solver.solve.solve` (``auto``: the exact table for 3×3, IDA* with pattern databases for
4×4 and 5×5, IDA* with linear conflict above) has no progress callback and cannot be
interrupted. So the job asks it for a solution within a node budget, and when the budget runs
out (a :class:`~solver.errors.SearchLimitError`, which names the cost bound reached: a lower
bound on the optimum) it reports that bound and the positions searched, checks for a cancel,
and asks again with four times the budget. The searches that ran out cost at most a third
more than the last one; the answer is the solver's own, optimal, for every board it solves.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.result import SearchResult

FIRST_BUDGET = 500_000
"""Nodes of the first try: a few hundredths of a second, so progress shows early."""
GROWTH = 4


@dataclass(frozen=True)
class Progress:
    """What the window shows while a search runs."""

    searched: int  # positions expanded so far, over every try
    at_least: int  # moves the solution needs at least (0 before the first bound is known)
    seconds: float

    @property
    def label(self) -> str:
        """The line the status shows.

        >>> Progress(1_234_567, 52, 3.5).label
        'Searching… 3.5 s, 1,234,567 positions, the answer is at least 52 moves'
        """
        text = f"Searching… {self.seconds:.1f} s, {self.searched:,} positions"
        return text + (f", the answer is at least {self.at_least} moves" if self.at_least else "")


_gc_lock = threading.Lock()
_gc_jobs = 0  # jobs whose thread still runs
_gc_held = False  # whether a job turned the cyclic collector off


def _hold_collector() -> None:
    """Called in the window's thread as a job starts: collect now, then no cyclic collection while
    jobs run. A collection in a job's thread could free a Tk object left in a cycle, and Tcl aborts
    the whole process when its objects are freed outside the thread that made them."""
    global _gc_jobs, _gc_held
    with _gc_lock:
        if _gc_jobs == 0 and gc.isenabled():
            gc.collect()
            gc.disable()
            _gc_held = True
        _gc_jobs += 1


def _resume_collector() -> None:
    """Called in the window's thread when it sees a job done: collection resumes there once no job runs."""
    global _gc_held
    with _gc_lock:
        if _gc_jobs == 0 and _gc_held:
            _gc_held = False
            gc.enable()


class Job:
    """Work run in a daemon thread: ``work(job)`` returns the result, reading :attr:`cancelled`
    and setting :attr:`progress` as it goes.

    Read :attr:`progress`, :attr:`result` and :attr:`error` from any thread once :attr:`done`;
    :meth:`cancel` asks the work to stop (a search stops at its next budget check), and its
    result is then thrown away.
    """

    def __init__(self, work: Callable[[Job], object]) -> None:
        self.began = time.monotonic()
        self.progress = Progress(0, 0, 0.0)
        self.result: object | None = None
        self.error: str | None = None
        self.cancelled = threading.Event()
        self._work = work
        _hold_collector()
        self.thread = threading.Thread(target=self._run, name="npuzzle-solve", daemon=True)
        self.thread.start()

    @property
    def done(self) -> bool:
        """Whether the work has ended (read it from the window's thread: it resumes garbage collection)."""
        if self.thread.is_alive():
            return False
        _resume_collector()
        return True

    def cancel(self) -> None:
        self.cancelled.set()

    def _run(self) -> None:
        global _gc_jobs
        try:
            result = self._work(self)
        except (ValueError, MemoryError) as exc:  # e.g. an algorithm that cannot take this board
            self.error = str(exc) or type(exc).__name__
            return
        finally:
            with _gc_lock:
                _gc_jobs -= 1
        if not self.cancelled.is_set():
            self.result = result


def search(board: Board, job: Job, solve: Callable[..., SearchResult] | None = None) -> SearchResult | None:
    """An optimal solution of ``board`` (``path`` None when it has none), in growing budgets that
    report to ``job.progress``; ``None`` once the job is cancelled."""
    if solve is None:
        from solver.solve import solve as solve_optimally

        solve = solve_optimally
    budget, searched = FIRST_BUDGET, 0
    while not job.cancelled.is_set():
        try:
            return solve(board, node_limit=budget)
        except SearchLimitError as exc:
            searched += exc.expanded
            at_least = max(exc.bound or 0, job.progress.at_least)
            job.progress = Progress(searched, at_least, time.monotonic() - job.began)
            budget *= GROWTH
    return None


def solve_job(board: Board, solve: Callable[..., SearchResult] | None = None) -> Job:
    """A job whose result is :func:`search`'s for ``board``."""
    return Job(lambda job: search(board, job, solve))
