"""Points: full marks for AC, the assignment's share for SUB, nothing otherwise."""

from __future__ import annotations

from grader.model.verdicts import Verdict, total

__all__ = ["case_points", "total"]


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
