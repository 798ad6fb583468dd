"""The results model: what grading produced, as frozen dataclasses with ``to_json()``.

``results.json`` is ``GradingResults.to_json()``, checked against
``grader/schemas/results.schema.json``. Reporters (table, CSV, feedback, and later
Gradescope, Classroom, HTML) read these objects, never the raw runs. Order is
deterministic: submissions by id, cases in manifest order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grader.judging.apiresult import ApiResult
from grader.judging.scoring import total
from grader.judging.verdicts import SEVERITY, Verdict, worst

FORMAT_VERSION = 1


@dataclass(frozen=True)
class CaseResult:
    """One (submission, case) run: the verdict, the points and a message for the student.

    ``path`` holds the boards the program printed (row-major tiles), for replays; ``problems``
    every problem found (the first decided the verdict); ``notes`` the format deviations the
    lenient parser forgave.
    """

    case: str
    verdict: Verdict
    points: float
    max_points: float
    message: str
    seconds: float
    visibility: str = "visible"
    cpu_seconds: float | None = None
    exit_code: int | None = None
    signal: int | None = None
    moves: int | None = None
    optimal_moves: int | None = None
    solvable: bool | None = None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    path: tuple[tuple[int, ...], ...] | None = None
    stderr: str = ""
    runs: int = 1
    """2 when a run near its time limit was run once more (:mod:`grader.judging.time_limit`); the message says why."""

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case, "verdict": self.verdict.value, "points": self.points,
                "max_points": self.max_points, "message": self.message, "seconds": round(self.seconds, 3),
                "visibility": self.visibility, "cpu_seconds": self.cpu_seconds, "exit_code": self.exit_code,
                "signal": self.signal, "moves": self.moves, "optimal_moves": self.optimal_moves,
                "solvable": self.solvable, "problems": list(self.problems), "notes": list(self.notes),
                "path": [list(board) for board in self.path] if self.path is not None else None,
                "stderr": self.stderr, **({"runs": self.runs} if self.runs != 1 else {})}


@dataclass(frozen=True)
class SubmissionResult:
    """One submission: its build and every case graded so far (``complete`` false after Ctrl-C).

    ``api`` holds its API tests (:mod:`grader.apitests`) when the assignment has an ``[api]``
    part; their points count in :attr:`score`, and ``max_score`` includes the part's.
    """

    id: str
    language: str
    build: dict[str, Any]
    cases: tuple[CaseResult, ...]
    max_score: float
    complete: bool = True
    source: str = ""
    api: tuple[ApiResult, ...] = ()

    @property
    def score(self) -> float:
        return total([*(case.points for case in self.cases), *(test.points for test in self.api)])

    @property
    def api_passed(self) -> int:
        return sum(1 for test in self.api if test.passed)

    @property
    def verdict(self) -> Verdict | None:
        """The worst case verdict (the submission's overall verdict)."""
        return worst(case.verdict for case in self.cases)

    def counts(self) -> dict[str, int]:
        """Verdict -> number of cases, in severity order, only the verdicts that occur."""
        counter = Counter(case.verdict for case in self.cases)
        return {verdict.value: counter[verdict] for verdict in SEVERITY if counter[verdict]}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "score": self.score, "max_score": self.max_score,
                "verdict": self.verdict.value if self.verdict else None, "counts": self.counts(),
                "complete": self.complete, "language": self.language, "source": self.source,
                "build": self.build, "cases": [case.to_json() for case in self.cases],
                **({"api": [test.to_json() for test in self.api]} if self.api else {})}


@dataclass(frozen=True)
class GradingResults:
    testset: str
    testset_path: str
    assignment: dict[str, Any]
    cases: tuple[dict[str, Any], ...]
    submissions: tuple[SubmissionResult, ...]
    isolation: tuple[str, ...] = ()
    interrupted: bool = False
    strict: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    api_points: float = 0.0
    """The API part's points (0 without an ``[api]`` part); :attr:`max_score` includes them."""

    @property
    def max_score(self) -> float:
        return total([*(case["points"] for case in self.cases), self.api_points])

    @property
    def title(self) -> str:
        """What students and TAs call the work: the assignment's name, else the test set's."""
        return assignment_title({"assignment": self.assignment, "testset": self.testset})

    def to_json(self) -> dict[str, Any]:
        return {"format_version": FORMAT_VERSION, "testset": self.testset, "testset_path": self.testset_path,
                "interrupted": self.interrupted, "strict": self.strict, "isolation": list(self.isolation),
                "assignment": self.assignment, "cases": list(self.cases), "max_score": self.max_score,
                "submissions": [submission.to_json() for submission in self.submissions],
                **({"api_points": self.api_points} if self.api_points else {}), **self.extra}


def assignment_title(document: Mapping[str, Any]) -> str:
    """The assignment's name in a results.json document (``assignment.name``), else its test set's name."""
    return str((document.get("assignment") or {}).get("name") or document.get("testset") or "")
