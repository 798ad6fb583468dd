"""Points: full marks for AC, the assignment's share for SUB, nothing otherwise."""

from __future__ import annotations

from collections.abc import Iterable

from grader.judging.verdicts import Verdict


def case_points(verdict: Verdict, max_points: float, suboptimal_credit: float) -> float:
    """The points a verdict earns on a case worth ``max_points``.

    >>> case_points(Verdict.SUB, 2, 0.5)
    1.0
    """
    if verdict is Verdict.AC:
        return float(max_points)
    if verdict is Verdict.SUB:
        return round(max_points * suboptimal_credit, 6)
    return 0.0


def total(points: Iterable[float]) -> float:
    """A sum without float noise in reports (0.1 + 0.2 shows as 0.3)."""
    return round(sum(points), 6)
