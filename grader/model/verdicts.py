"""The closed set of verdicts and their order of severity (how a run's facts become one is
:mod:`grader.judging.verdicts`).

Per case, judge precedence decides which fact wins (Kattis/ICPC style): a timeout outranks running out of
memory, which outranks a crash, which outranks anything the output says.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class Verdict(str, enum.Enum):
    AC = "AC"
    SUB = "SUB"
    WA = "WA"
    PE = "PE"
    TLE = "TLE"
    MLE = "MLE"
    RTE = "RTE"
    CE = "CE"
    NO = "NO"
    JE = "JE"

    @property
    def meaning(self) -> str:
        return MEANINGS[self]

    def __str__(self) -> str:
        return self.value


MEANINGS = {
    Verdict.AC: "accepted: a legal, optimal path (or a correct 'unsolvable')",
    Verdict.SUB: "suboptimal: a legal path to the goal, longer than the optimum",
    Verdict.WA: "wrong answer",
    Verdict.PE: "presentation error: the output cannot be read in the required format",
    Verdict.TLE: "time limit exceeded",
    Verdict.MLE: "memory limit exceeded",
    Verdict.RTE: "run-time error: the program crashed or exited with a non-zero status",
    Verdict.CE: "compile error: the submission could not be built",
    Verdict.NO: "no output",
    Verdict.JE: "judge error: a fault of the grader or its setup, not the student's",
}

SEVERITY: tuple[Verdict, ...] = (Verdict.JE, Verdict.CE, Verdict.TLE, Verdict.MLE, Verdict.RTE, Verdict.NO,
                                 Verdict.PE, Verdict.WA, Verdict.SUB, Verdict.AC)
"""Worst first: a submission's overall verdict is the worst of its cases'."""

SOLVED = frozenset({Verdict.AC, Verdict.SUB})


def worst(verdicts: Iterable[Verdict]) -> Verdict | None:
    ranked = sorted(verdicts, key=SEVERITY.index)
    return ranked[0] if ranked else None


def total(points: Iterable[float]) -> float:
    """A sum without float noise in reports (0.1 + 0.2 shows as 0.3)."""
    return round(sum(points), 6)
