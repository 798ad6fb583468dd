"""How a run's facts become a verdict (the closed set itself is :mod:`grader.model.verdicts`).

Per case, judge precedence decides which fact wins (Kattis/ICPC style): a timeout
outranks running out of memory, which outranks a crash, which outranks anything the
output says. A partial output is still verified, so the message can explain what the
program had printed when it was stopped.
"""

from __future__ import annotations

import signal as signals
from dataclasses import dataclass

from grader.model.verdicts import MEANINGS, SEVERITY, SOLVED, Verdict, worst

__all__ = ["MEANINGS", "SEVERITY", "SOLVED", "RunFacts", "Verdict", "run_verdict", "worst"]


@dataclass(frozen=True)
class RunFacts:
    """What the runner observed, reduced to what judging needs."""

    timed_out: bool
    memory_exceeded: bool
    exit_code: int | None
    signal: int | None
    output_truncated: bool
    wall_seconds: float
    limit_seconds: float
    memory_mb: int
    time_message: str = ""
    """Why the run is over its time limit, when the caller judged it (:mod:`grader.judging.time_limit`)."""
    memory_claim_refuted: bool = False
    """The program printed that it ran out of memory, and the grader measured that it did not: its printed
    text explains nothing (no hint is drawn from it)."""


def run_verdict(facts: RunFacts) -> tuple[Verdict, str] | None:
    """The verdict the run itself earns (TLE > MLE > RTE), or ``None`` when it exited cleanly."""
    if facts.timed_out:
        return Verdict.TLE, facts.time_message or f"stopped after the time limit of {facts.limit_seconds:g} s"
    if facts.memory_exceeded:
        return Verdict.MLE, f"ran out of memory (limit {facts.memory_mb} MB)"
    if facts.signal is not None:
        return Verdict.RTE, f"killed by signal {_signal_name(facts.signal)}"
    if facts.exit_code not in (0, None):
        return Verdict.RTE, f"exited with status {facts.exit_code}"
    if facts.output_truncated:
        return Verdict.RTE, "printed more than the output limit allows (stopped reading there)"
    return None


def _signal_name(number: int) -> str:
    try:
        return f"{signals.Signals(number).name} ({number})"
    except ValueError:
        return str(number)
