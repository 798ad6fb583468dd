"""Run a submission's API tests: the judge (:mod:`judge`) decides each, through as many worker runs as it takes.

The whole part has ``run_seconds`` of wall time (``[api]``), shared by its runs; up to
``parallel`` runs go at once, each with its share of the boards of known depth.

The Board tests and the Solver tests run in different workers (only the Solver tests' worker
holds the reference Board). When a worker ends, hangs or breaks the protocol in a test, that
test fails with what happened, and a new worker takes up the tests after it, at most
:data:`MAX_RUNS` runs in all. So one method that loops for ever costs its own tests, not the
whole part. Python and Java run the same way: only the worker differs.
"""

from __future__ import annotations

import concurrent.futures
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

from grader.apitests import java, judge, python
from grader.apitests.battery import SLOW_TESTS, Battery, share_depth_boards
from grader.apitests.catalogue import Planned, plan
from grader.apitests.protocol import Reported
from grader.intake.build import Build
from grader.model.apiresult import ApiResult
from grader.testsets.apiconfig import ApiConfig
from grader.testsets.assignment import Assignment

MAX_RUNS = 12
"""At most this many worker runs per submission (each crash costs one test and one run)."""
MIN_RUN_SECONDS = 2.0
"""A new run starts only with at least this much of the part's time left."""
LAUNCHERS = {"python": python, "java": java}

Folder = Callable[[str], Path]
"""Makes a fresh, empty run folder; its argument is a label for the folder's name."""


def run_api_tests(build: Build, battery: Battery, config: ApiConfig, assignment: Assignment,
                  folder: Folder) -> tuple[ApiResult, ...]:
    """Every planned API test of one built submission, judged; never raises for a student's fault.

    With ``config.parallel`` above 1, for Python, the boards of known depth (the student's own A*
    solving them is most of the battery's time) are shared out among that many harness runs at once:
    the first runs every test on its share, the others only the two tests that solve those
    boards. A test passes when it passes in every run that had it.
    """
    planned = plan(config, build.language)
    names = [p.test.name for p in planned]
    slow = [name for name in names if name in SLOW_TESTS]
    # Python only: a student's plain A* in Python is what takes the time; a Java one solves the boards in
    # about a second, less than a second JVM (and its heap) would cost.
    lanes_wanted = config.parallel if slow and build.language == "python" else 1
    shares = share_depth_boards(battery.common["depth_boards"], lanes_wanted)
    lanes = [(names, shares[0])] + [(slow, share) for share in shares[1:]]
    deadline = time.monotonic() + config.run_seconds
    if len(lanes) == 1:
        outcomes = [_run_judged_lane(build, battery, assignment, folder, config, names, None, deadline)]
    else:
        with concurrent.futures.ThreadPoolExecutor(len(lanes), thread_name_prefix="api-lane") as pool:
            outcomes = list(pool.map(lambda lane: _run_judged_lane(build, battery, assignment, folder, config,
                                                                   lane[0], lane[1], deadline), lanes))
    return tuple(_judge(p, [lane.get(p.test.name) for lane in outcomes if p.test.name in lane]) for p in planned)


class _Budget:
    """The worker runs a lane may still start, shared by its parts (which may run at once)."""

    def __init__(self, runs: int) -> None:
        self.left = runs
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True


def _run_judged_lane(build: Build, battery: Battery, assignment: Assignment, folder: Folder, config: ApiConfig,
                     names: list[str], depth_boards: list | None, deadline: float) -> dict[str, Reported | str]:
    """One lane's tests judged here (:mod:`judge`), through as many workers as it takes.

    The Board tests' workers never hold the reference Board, so the Board and the Solver tests run in
    workers of their own. For Java, with ``parallel`` above 1, the two parts run at once: a JVM's start
    and the worker's warm-up are most of a Java part's time, and the two share no state.
    """
    parts = [[name for name in names if judge.is_solver_test(name) == solver_part] for solver_part in (False, True)]
    parts = [part for part in parts if part]
    budget = _Budget(MAX_RUNS)

    def run(part: list[str]) -> dict[str, Reported | str]:
        return _run_judged_part(build, battery, assignment, folder, config, part, depth_boards, deadline, budget)

    if build.language == "java" and config.parallel > 1 and len(parts) > 1:
        with concurrent.futures.ThreadPoolExecutor(len(parts), thread_name_prefix="api-part") as pool:
            done = list(pool.map(run, parts))
    else:
        done = [run(part) for part in parts]
    return {name: result for part in done for name, result in part.items()}


def _run_judged_part(build: Build, battery: Battery, assignment: Assignment, folder: Folder, config: ApiConfig,
                     names: list[str], depth_boards: list | None, deadline: float,
                     budget: _Budget) -> dict[str, Reported | str]:
    """``names`` judged through as many workers as ``budget`` still allows."""
    results: dict[str, Reported | str] = {}
    remaining = list(names)
    why_stopped = f"not run: the worker was stopped {MAX_RUNS} times before reaching this test"
    while remaining:
        left = deadline - time.monotonic()
        if left < MIN_RUN_SECONDS:
            why_stopped = (f"not run: the API part's {config.run_seconds:g} s ran out before this test "
                           f"(tests before it hung or crashed)")
            break
        if not budget.take():
            break
        workdir = folder("api")
        try:
            got, problem = judge.run_session(build, assignment, workdir, battery.spec(remaining, depth_boards),
                                             remaining, left)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if problem is not None:
            results.update((name, problem) for name in remaining)
            return results
        results.update(got)
        remaining = [name for name in remaining if name not in got]
    results.update((name, why_stopped) for name in remaining)
    return results


def _judge(planned: Planned, lanes: list[Reported | str | None]) -> ApiResult:
    """A test's result from every lane that ran it: the first failure, else the slowest pass."""
    test = planned.test
    failures = [entry for entry in lanes if not (isinstance(entry, Reported) and entry.passed)]
    if failures:
        first = failures[0]
        message = first.message if isinstance(first, Reported) else first or "not reported by the harness"
        passed = False
    else:  # every lane is a passing Reported here
        passed, message = True, max((entry.message for entry in lanes if isinstance(entry, Reported)),
                                    key=_passed_seconds)
    return ApiResult(name=test.name, group=test.group, title=test.title, passed=passed,
                     points=planned.max_points if passed else 0.0, max_points=planned.max_points, message=message)


def _passed_seconds(message: str) -> float:
    """The seconds in a harness's "passed in 1.23 s" (0 when it says something else)."""
    words = message.split()
    try:
        return float(words[2]) if words[:2] == ["passed", "in"] else 0.0
    except (IndexError, ValueError):
        return 0.0


def unavailable(config: ApiConfig, build: Build, message: str) -> tuple[ApiResult, ...]:
    """Every API test failed with one message: the submission did not build, has no harness, or the grader failed."""
    language = build.language if build.language in LAUNCHERS else "python"
    return tuple(ApiResult(name=p.test.name, group=p.test.group, title=p.test.title, passed=False, points=0.0,
                           max_points=p.max_points, message=message) for p in plan(config, language))


def api_tests(build: Build, battery: Battery | None, config: ApiConfig, assignment: Assignment,
              folder: Folder) -> tuple[ApiResult, ...]:
    """The API part of one submission, whatever happens: a grader fault is named in every test's message."""
    if not build.ok:
        return unavailable(config, build, "not run: the submission did not build")
    if build.language not in config.languages or build.language not in LAUNCHERS:
        return unavailable(config, build, f"not run: this assignment has no API tests for {build.language} "
                                          f"submissions")
    try:
        assert battery is not None
        return run_api_tests(build, battery, config, assignment, folder)
    except Exception as exc:  # a grader fault must not stop the batch
        return unavailable(config, build, f"internal grader error while running the API tests: "
                                          f"{type(exc).__name__}: {exc}")
