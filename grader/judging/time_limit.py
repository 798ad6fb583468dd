"""Time limits judged on CPU time, with a wall-clock cap that counts only the time a program ran or chose to wait.

A run's wall time swings with the machine's load (3x on a busy grading host); the CPU time it used barely
moves. So a case's time limit is a limit on the CPU time of the whole run (every process of it, as the
sandbox counts it: :attr:`Outcome.cpu_seconds`), and a wall-clock cap at ``wall_cap_factor`` times the limit
stops programs that sleep or wait. The cap counts the run's *active* time: its wall time less the time it
was runnable but waiting for a CPU the machine could not give it (:attr:`Outcome.active_seconds`, measured
by the sandbox). A starved program is therefore never cut short and never needs a second chance: a run is
TLE when its CPU time is over the limit, or when it waited (slept, read input that never comes) past the cap.

Where the kernel does not report that waiting (``TimePolicy.measured`` false), the cap counts the plain wall
clock, and a run that ends within ``rerun_margin`` above its limit, or is stopped by the cap after computing
most of the limit (the machine may have starved it), is run once more before it is called TLE.

Pure functions: :class:`TimePolicy` gives the limits a run gets, :func:`classify` reads its outcome.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

WALL_CAP_FACTOR = 3.0
WALL_CAP_MIN_EXTRA_SECONDS = 5.0
"""The wall cap is at least this much above the limit, so short limits still leave a JVM room to start."""
RERUN_MARGIN = 0.15
STARVED_CPU_SHARE = 0.5
"""Unmeasured waiting only: a run stopped by the wall cap after this share of its CPU limit may have been starved."""
CAP_TOLERANCE_SECONDS = 0.05


@dataclass(frozen=True)
class TimePolicy:
    """One run's time limits: ``limit`` CPU seconds, and how far the runner lets a run go past it.

    ``measured``: the sandbox measures the time a run waits for a CPU, so the wall cap leaves it out."""

    limit: float
    wall_cap_factor: float = WALL_CAP_FACTOR
    rerun_margin: float = RERUN_MARGIN
    measured: bool = True

    @property
    def cpu_cap(self) -> float:
        """Where the runner stops a run for CPU: the limit plus the margin, so that what it measured when it stopped
        is plainly over the limit (a process's CPU rlimit can fire while the whole run's count reads up to ~20% lower),
        and, without a measure of waiting, so a near miss ends by itself and is run again."""
        return self.limit * (1 + self.rerun_margin)

    @property
    def wall_cap(self) -> float:
        """Where the runner stops a run by its active wall time (for programs that sleep or wait)."""
        return max(self.limit * self.wall_cap_factor, self.limit + WALL_CAP_MIN_EXTRA_SECONDS, self.cpu_cap)


class TimeCall(str, enum.Enum):
    WITHIN = "within"      # no time verdict
    NEAR = "near"          # unmeasured waiting only: just over the limit, or maybe starved: run it once more
    OVER_CPU = "over-cpu"  # TLE: it computed past the limit (or the sandbox's CPU limit stopped it)
    OVER_WALL = "over-wall"  # TLE: stopped by the wall cap while waiting, not computing


def classify(policy: TimePolicy, cpu_seconds: float, active_seconds: float, timed_out: bool) -> TimeCall:
    """What a finished run's times say, given whether the runner stopped it (``timed_out``).

    ``active_seconds``: the wall time less the time spent waiting for a CPU (the plain wall time when unmeasured)."""
    stopped_by_wall = timed_out and active_seconds >= policy.wall_cap - CAP_TOLERANCE_SECONDS
    if cpu_seconds > policy.cpu_cap or (timed_out and not stopped_by_wall):
        return TimeCall.OVER_CPU  # over even the margin, or the runner's CPU limit (rlimit or cgroup) stopped it
    if policy.measured:
        if cpu_seconds > policy.limit:
            return TimeCall.OVER_CPU
        return TimeCall.OVER_WALL if stopped_by_wall else TimeCall.WITHIN
    if stopped_by_wall:
        if cpu_seconds > policy.limit:
            return TimeCall.OVER_CPU
        return TimeCall.NEAR if cpu_seconds >= STARVED_CPU_SHARE * policy.limit else TimeCall.OVER_WALL
    return TimeCall.NEAR if cpu_seconds > policy.limit else TimeCall.WITHIN


def tle_message(call: TimeCall, policy: TimePolicy, cpu_seconds: float, wall_seconds: float,
                cpu_wait_seconds: float | None = None) -> str:
    """Why a run is TLE, in the student's terms: what was measured, and which limit it passed."""
    if call is TimeCall.OVER_WALL:
        waited = cpu_wait_seconds or 0.0
        active = max(0.0, wall_seconds - waited)
        busy = (f" ({wall_seconds:.1f} s of wall-clock time, less {waited:.1f} s spent waiting for a busy CPU, "
                "which is not counted)") if waited >= 0.05 else ""
        return (f"stopped after {active:.1f} s of running or waiting{busy} having used only {cpu_seconds:.2f} s of "
                f"CPU (time limit {policy.limit:g} s of CPU; a program may wait at most {policy.wall_cap:g} s): the "
                "program was waiting, not computing (reading standard input that never comes? sleeping?)")
    if cpu_seconds > policy.limit:
        return f"used {cpu_seconds:.2f} s of CPU time, over the time limit of {policy.limit:g} s"
    # The sandbox's CPU limit (a process's own rlimit) stopped it, though the whole run's count reads lower.
    return f"stopped by the sandbox at its CPU time limit (time limit {policy.limit:g} s of CPU)"


def rerun_note(first_cpu: float, first_wall: float, call: TimeCall, policy: TimePolicy) -> str:
    """What a result says when it comes from a second run (only where waiting for a CPU is not measured)."""
    if call is TimeCall.NEAR and first_cpu > policy.limit:
        why = f"the first run used {first_cpu:.2f} s of CPU, just over the limit of {policy.limit:g} s"
    else:
        why = (f"the first run was stopped by the wall-clock cap after {first_wall:.1f} s, with {first_cpu:.2f} s of "
               f"CPU (the machine was busy)")
    return f"run twice: {why}; this is the second run's result"
