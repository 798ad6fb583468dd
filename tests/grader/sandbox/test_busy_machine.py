"""A busy machine changes no verdict: the wall cap counts only the time a run ran or chose to wait.

Busy processes pinned to the very CPU the run is pinned to take most of it away; the run then needs several
times its CPU time in wall time. It must still finish (never stopped by the wall cap), and its waiting for the
CPU must be measured, while a program that sleeps is still stopped at the cap on the same busy CPU.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.judging.time_limit import TimeCall, TimePolicy, classify, tle_message
from grader.sandbox import cpuwait, runner

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
HOGS = 3  # each in its own session (autogroup: a session shares the CPU as one), so the run gets a quarter of it
BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {seconds}: pass\nprint('done')"
pytestmark = pytest.mark.skipif(not cpuwait.available(), reason="this kernel does not report run-queue delay")


@contextlib.contextmanager
def busy_cpu() -> Iterator[None]:
    """HOGS busy processes and this thread (so the runs it starts) all pinned to one CPU."""
    cpu = max(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    hogs = [subprocess.Popen([sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"],
                             start_new_session=True) for _ in range(HOGS)]
    os.sched_setaffinity(0, {cpu})
    try:
        time.sleep(0.2)
        yield
    finally:
        os.sched_setaffinity(0, before)
        for hog in hogs:
            hog.kill()
            hog.wait()


def run(code: str, workdir: Path, policy: TimePolicy) -> runner.Outcome:
    limits = runner.Limits(wall_seconds=policy.wall_cap, cpu_seconds=policy.cpu_cap)
    return runner.run_command([PYTHON, "-c", code], workdir, limits)


# The threads measured: the slot cgroup's, or without cgroups the process tree under the run (cpuwait.TreeThreads).
@pytest.mark.parametrize("disabled", ["", "cgroup"], ids=["every-layer", "no-cgroup"])
def test_a_starved_program_is_not_cut_short_and_a_sleeper_still_is(workdir: Path, disabled: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NPUZZLE_SANDBOX_DISABLE", disabled)
    # a wall cap of 1 s; the run needs 0.6 s of CPU, which takes about 2.4 s of wall time on the busy CPU.
    limits = runner.Limits(wall_seconds=1.0, cpu_seconds=3.0)
    with busy_cpu():
        starved = runner.run_command([PYTHON, "-c", BURN.format(seconds=0.6)], workdir, limits)
        sleeper = runner.run_command([PYTHON, "-c", "import time; time.sleep(30)"], workdir, limits)
    limits_cap = limits.wall_seconds
    assert starved.wall_seconds > limits_cap + 0.3, "the hogs did not slow the run: the test shows nothing"
    assert (starved.timed_out, starved.exit_code, starved.stdout) == (False, 0, b"done\n")
    assert starved.cpu_wait_seconds is not None and starved.cpu_wait_seconds > 0.3
    assert starved.active_seconds < limits_cap
    assert sleeper.timed_out and limits_cap <= sleeper.active_seconds < limits_cap + 1.0
    assert sleeper.cpu_seconds < 0.5


# (the program's CPU need in seconds) -> the call, for a 0.5 s limit; judged idle and busy alike
PROGRAMS = {"fast": (0.2, TimeCall.WITHIN), "over": (1.6, TimeCall.OVER_CPU)}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_same_call_idle_and_busy_in_one_run(workdir: Path, name: str) -> None:
    seconds, expected = PROGRAMS[name]
    policy = TimePolicy(limit=0.5)  # a wall cap of 5.5 s; busy, the "over" run takes ~4 s of wall time
    calls, messages = [], []
    for busy in (False, True):
        with busy_cpu() if busy else contextlib.nullcontext():
            outcome = run(BURN.format(seconds=seconds), workdir, policy)
        call = classify(policy, outcome.cpu_seconds, outcome.active_seconds, outcome.timed_out)
        calls.append(call)
        if call is not TimeCall.WITHIN:
            messages.append(tle_message(call, policy, outcome.cpu_seconds, outcome.wall_seconds,
                                        outcome.cpu_wait_seconds))
    assert calls == [expected, expected]
    for message in messages:  # what it says it used is over what it says the limit is
        used = float(message.split("used ")[1].split(" s")[0])
        assert used > policy.limit, message
