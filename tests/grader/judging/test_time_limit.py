"""Time limits on CPU time: what a run's times say, and the limits a run gets."""

from __future__ import annotations

import re

import pytest

from grader.judging.time_limit import TimeCall, TimePolicy, classify, rerun_note, tle_message

MEASURED = TimePolicy(limit=10.0)                   # the sandbox measures waiting for a CPU: no second runs
UNMEASURED = TimePolicy(limit=10.0, measured=False)  # the wall cap counts the plain wall clock

# (cpu seconds, active seconds, stopped by the runner) -> the call with waiting measured, and without
CALLS = {
    "fast": (2.0, 2.5, False, TimeCall.WITHIN, TimeCall.WITHIN),
    "slow-wall-on-a-busy-machine": (8.0, 24.0, False, TimeCall.WITHIN, TimeCall.WITHIN),
    "just-under": (9.9, 12.0, False, TimeCall.WITHIN, TimeCall.WITHIN),
    "just-over-ends-by-itself": (10.6, 11.0, False, TimeCall.OVER_CPU, TimeCall.NEAR),
    "past-the-margin": (11.6, 11.7, False, TimeCall.OVER_CPU, TimeCall.OVER_CPU),
    "stopped-by-the-cpu-limit": (12.0, 12.3, True, TimeCall.OVER_CPU, TimeCall.OVER_CPU),
    "sleeper-stopped-by-the-wall-cap": (0.1, 30.0, True, TimeCall.OVER_WALL, TimeCall.OVER_WALL),
    # measured, a run stopped at the cap after 7 s of CPU slept the rest: no starvation is left to excuse it
    "computed-then-waited-to-the-cap": (7.0, 30.0, True, TimeCall.OVER_WALL, TimeCall.NEAR),
    "forks-past-the-limit-before-the-wall-cap": (10.5, 30.0, True, TimeCall.OVER_CPU, TimeCall.OVER_CPU),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_classify(name: str) -> None:
    cpu, active, stopped, measured, unmeasured = CALLS[name]
    assert classify(MEASURED, cpu, active, stopped) is measured
    assert classify(UNMEASURED, cpu, active, stopped) is unmeasured


def test_limits_a_run_gets() -> None:
    assert MEASURED.cpu_cap == pytest.approx(11.5) and MEASURED.wall_cap == 30.0
    short = TimePolicy(limit=1.0)
    assert short.wall_cap == 6.0  # at least 5 s above the limit, for a JVM to start
    assert TimePolicy(limit=2.0, wall_cap_factor=10, rerun_margin=0).cpu_cap == 2.0


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_tle_message_never_contradicts_itself(name: str) -> None:
    cpu, active, _stopped, call, _ = CALLS[name]
    if call is TimeCall.WITHIN:
        return
    message = tle_message(call, MEASURED, cpu, active + 4.0, 4.0)
    used = float(re.search(r"used (?:only )?([0-9.]+) s of CPU", message).group(1))
    if call is TimeCall.OVER_CPU:
        assert used > MEASURED.limit and "over the time limit of 10 s" in message
    else:
        assert used <= MEASURED.limit and f"{active:.1f} s of running or waiting" in message


def test_messages_say_what_was_measured() -> None:
    assert tle_message(TimeCall.OVER_CPU, MEASURED, 11.8, 12.0) == \
        "used 11.80 s of CPU time, over the time limit of 10 s"
    waiting = tle_message(TimeCall.OVER_WALL, MEASURED, 0.1, 30.0)
    assert "30.0 s of running or waiting having used only 0.10 s of CPU" in waiting and "waiting" in waiting
    busy = tle_message(TimeCall.OVER_WALL, MEASURED, 0.1, 42.0, 12.0)
    assert "42.0 s of wall-clock time, less 12.0 s spent waiting for a busy CPU, which is not counted" in busy
    # the sandbox's own CPU limit stopped it though the whole run's count reads under the limit: no number to contradict
    assert tle_message(TimeCall.OVER_CPU, MEASURED, 9.0, 9.5) == \
        "stopped by the sandbox at its CPU time limit (time limit 10 s of CPU)"
    assert rerun_note(10.6, 11.0, TimeCall.NEAR, UNMEASURED) == (
        "run twice: the first run used 10.60 s of CPU, just over the limit of 10 s; this is the second run's result")
    assert "stopped by the wall-clock cap after 30.0 s" in rerun_note(7.0, 30.0, TimeCall.NEAR, UNMEASURED)
