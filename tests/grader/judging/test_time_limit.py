"""Time limits on CPU time: what a run's times say, and the limits a run gets."""

from __future__ import annotations

import pytest

from grader.judging.time_limit import TimeCall, TimePolicy, classify, rerun_note, tle_message

POLICY = TimePolicy(limit=10.0)

# (cpu seconds, wall seconds, stopped by the runner) -> the call
CALLS = {
    "fast": (2.0, 2.5, False, TimeCall.WITHIN),
    "slow-wall-on-a-busy-machine": (8.0, 24.0, False, TimeCall.WITHIN),
    "just-under": (9.9, 12.0, False, TimeCall.WITHIN),
    "just-over-ends-by-itself": (10.6, 11.0, False, TimeCall.NEAR),
    "past-the-margin": (11.6, 11.7, False, TimeCall.OVER_CPU),
    "stopped-by-the-cpu-limit": (12.0, 12.3, True, TimeCall.OVER_CPU),
    "sleeper-stopped-by-the-wall-cap": (0.1, 30.0, True, TimeCall.OVER_WALL),
    "starved-stopped-by-the-wall-cap": (7.0, 30.0, True, TimeCall.NEAR),
    "forks-past-the-limit-before-the-wall-cap": (10.5, 30.0, True, TimeCall.OVER_CPU),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_classify(name: str) -> None:
    cpu, wall, stopped, call = CALLS[name]
    assert classify(POLICY, cpu, wall, stopped) is call


def test_limits_a_run_gets() -> None:
    assert POLICY.cpu_cap == pytest.approx(11.5) and POLICY.wall_cap == 30.0
    short = TimePolicy(limit=1.0)
    assert short.wall_cap == 6.0  # at least 5 s above the limit, for a JVM to start
    assert TimePolicy(limit=2.0, wall_cap_factor=10, rerun_margin=0).cpu_cap == 2.0


def test_messages_say_cpu_and_why() -> None:
    assert tle_message(TimeCall.OVER_CPU, POLICY, 11.8, 12.0) == \
        "used 11.80 s of CPU time, over the time limit of 10 s"
    waiting = tle_message(TimeCall.OVER_WALL, POLICY, 0.1, 30.0)
    assert "30.0 s of wall-clock time having used only 0.10 s of CPU" in waiting and "waiting" in waiting
    assert rerun_note(10.6, 11.0, TimeCall.NEAR, POLICY) == ("run twice: the first run used 10.60 s of CPU, just over "
                                                            "the limit of 10 s; this is the second run's result")
    assert "stopped by the wall-clock cap after 30.0 s" in rerun_note(7.0, 30.0, TimeCall.NEAR, POLICY)
