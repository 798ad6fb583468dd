"""Time limits judged on CPU time, with a wall-clock cap for programs that wait, and one re-run near the limit.

A run's wall time swings with the machine's load (3x on a busy grading host); the CPU time it used barely
moves. So a case's time limit is a limit on the CPU time of the whole run (every process of it, as the
sandbox counts it: :attr:`Outcome.cpu_seconds`), and the wall clock only stops programs that sleep or wait,
at ``wall_cap_factor`` times the limit. A run that ends by itself within ``rerun_margin`` above its limit (CPU
time still varies by some percent), or is stopped by the wall cap after computing most of the limit (the
machine starved it), is run once more before it is called TLE; the result says so.

Pure functions: :func:`policy` gives the limits a run gets, :func:`classify` reads its outcome.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

WALL_CAP_FACTOR = 3.0
WALL_CAP_MIN_EXTRA_SECONDS = 5.0
"""The wall cap is at least this much above the limit, so short limits still leave a JVM room to start."""
RERUN_MARGIN = 0.15
STARVED_CPU_SHARE = 0.5
"""A run stopped by the wall cap after using at least this share of its CPU limit was computing, not waiting."""


@dataclass(frozen=True)
class TimePolicy:
    """One run's time limits: ``limit`` CPU seconds, and how far the runner lets a run go past it."""

    limit: float
    wall_cap_factor: float = WALL_CAP_FACTOR
    rerun_margin: float = RERUN_MARGIN

    @property
    def cpu_cap(self) -> float:
        """Where the runner stops a run for CPU: the limit plus the margin, so a near miss ends by itself."""
        return self.limit * (1 + self.rerun_margin)

    @property
    def wall_cap(self) -> float:
        """Where the runner stops a run by the wall clock (for programs that sleep or wait)."""
        return max(self.limit * self.wall_cap_factor, self.limit + WALL_CAP_MIN_EXTRA_SECONDS, self.cpu_cap)


class TimeCall(str, enum.Enum):
    WITHIN = "within"      # no time verdict
    NEAR = "near"          # over the limit by less than the margin, or starved: run it once more
    OVER_CPU = "over-cpu"  # TLE: it computed past the limit
    OVER_WALL = "over-wall"  # TLE: stopped by the wall cap while waiting, not computing


def classify(policy: TimePolicy, cpu_seconds: float, wall_seconds: float, timed_out: bool) -> TimeCall:
    """What a finished run's times say, given whether the runner stopped it (``timed_out``)."""
    stopped_by_wall = timed_out and wall_seconds >= policy.wall_cap - 0.05
    if timed_out and not stopped_by_wall:
        return TimeCall.OVER_CPU  # the runner's CPU limit (rlimit or cgroup) stopped it
    if cpu_seconds > policy.cpu_cap:
        return TimeCall.OVER_CPU
    if stopped_by_wall:
        if cpu_seconds > policy.limit:
            return TimeCall.OVER_CPU
        return TimeCall.NEAR if cpu_seconds >= STARVED_CPU_SHARE * policy.limit else TimeCall.OVER_WALL
    if cpu_seconds > policy.limit:
        return TimeCall.NEAR
    return TimeCall.WITHIN


def tle_message(call: TimeCall, policy: TimePolicy, cpu_seconds: float, wall_seconds: float) -> str:
    """Why a run is TLE, in the student's terms."""
    if call is TimeCall.OVER_WALL:
        return (f"stopped after {wall_seconds:.1f} s of wall-clock time having used only {cpu_seconds:.2f} s of CPU "
                f"(time limit {policy.limit:g} s of CPU): the program was waiting, not computing (reading "
                "standard input that never comes? sleeping?)")
    return f"used {cpu_seconds:.2f} s of CPU time, over the time limit of {policy.limit:g} s"


def rerun_note(first_cpu: float, first_wall: float, call: TimeCall, policy: TimePolicy) -> str:
    """What a result says when it comes from a second run."""
    if call is TimeCall.NEAR and first_cpu > policy.limit:
        why = f"the first run used {first_cpu:.2f} s of CPU, just over the limit of {policy.limit:g} s"
    else:
        why = (f"the first run was stopped by the wall-clock cap after {first_wall:.1f} s, with {first_cpu:.2f} s of "
               f"CPU (the machine was busy)")
    return f"run twice: {why}; this is the second run's result"

