"""One API test's judgement (``grader.apitests``): its name, group, points and the student's message.

It sits here, below both the API harness that produces it and the reports that show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ApiResult:
    """A named API test of one submission: passed or not, with its share of the API part's points."""

    name: str
    group: str
    title: str
    passed: bool
    points: float
    max_points: float
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "group": self.group, "title": self.title, "passed": self.passed,
                "points": self.points, "max_points": self.max_points, "message": self.message}

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> ApiResult:
        """The inverse of :meth:`to_json` (the entry is already checked against results.schema.json)."""
        return cls(name=entry["name"], group=entry["group"], title=entry.get("title", ""),
                   passed=bool(entry["passed"]), points=float(entry["points"]),
                   max_points=float(entry["max_points"]), message=entry.get("message", ""))
