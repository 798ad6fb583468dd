"""The API tests (``grader.apitests``) as the reports show them: a column, a feedback section (the HTML
report's panel is built by its script from the page's data, :func:`grader.reports.html_report.report_data`).

Each reporter calls one function here, so a results document without an ``[api]`` part
reads exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.model.apiresult import ApiResult
from grader.model.results import SubmissionResult

GROUP_ORDER = ("api", "correctness", "memory", "timing")


def api_cell(tests: Sequence[ApiResult]) -> str:
    """The score table's ``api`` column: tests passed out of tests run."""
    return f"{sum(1 for t in tests if t.passed)}/{len(tests)}" if tests else ""


def _num(value: float) -> str:
    return f"{round(value, 2):g}"


def feedback_lines(tests: Sequence[ApiResult]) -> list[str]:
    """The feedback file's API section: per group, each test with its points, and why it failed."""
    if not tests:
        return []
    passed = sum(1 for t in tests if t.passed)
    points = sum(t.points for t in tests)
    most = sum(t.max_points for t in tests)
    lines = ["", f"API tests: {passed} of {len(tests)} passed, {_num(points)} / {_num(most)} points"]
    for group in GROUP_ORDER:
        chosen = [t for t in tests if t.group == group]
        if not chosen:
            continue
        lines += ["", f"  {group.capitalize()} ({sum(1 for t in chosen if t.passed)}/{len(chosen)} passed)"]
        for test in chosen:
            mark = "pass" if test.passed else "FAIL"
            lines.append(f"  [{mark}] {test.name}  {_num(test.points)}/{_num(test.max_points)}  ({test.title})")
            if not test.passed:
                lines += ["         " + line if line else "" for line in test.message.splitlines()]
    return lines


def integration_tests(submission: SubmissionResult) -> list[dict[str, Any]]:
    """The API tests of one submission as (name, passed, points, max_points, message) dicts, for the
    Gradescope and Classroom reporters."""
    return [{"name": f"API {t.group}: {t.name}", "passed": t.passed, "points": t.points,
             "max_points": t.max_points, "message": t.message}
            for t in submission.api]
