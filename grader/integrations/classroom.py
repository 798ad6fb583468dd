"""GitHub Classroom: one submission's results as the autograding reporter's ``result`` JSON.

``classroom-resources/autograding-grading-reporter@v1`` reads, for each runner id in its
``runners`` input, the environment variable ``<RUNNER>_RESULTS``: a base64 JSON object
``{version, status, max_score, tests: [{name, status, score, message, …}]}``. It computes
two totals from it, and they agree only for some shapes of ``tests``:

- the points it **posts** to Classroom ("Points 14/22") are the sum of every test's
  ``score`` over the sum of the runners' ``max_score``;
- the points it **logs** in the run (its "Test runner summary" table) are the share of
  tests whose ``status`` is ``pass``, times ``max_score``.

So a test worth partial points (a suboptimal path's half credit) counts fully in one and
not at all in the other. :func:`classroom_result` therefore emits all-or-nothing tests of
one equal weight: each case splits into "a legal path" (the suboptimal share) and "the
optimal length" (the rest), and a part worth k units becomes k tests. Then passed tests ×
unit = the sum of the scores, and both totals are the grader's own score. The template
workflow is ``templates/classroom/autograding.yml``; ``grade classroom template`` writes it
into a template repository (:mod:`grader.integrations.classroom_template`).

Classroom's points are advisory: a student can edit the workflow and the visible tests in
their own repository. The grade of record is one central ``grade`` over the cloned
repositories with the full test set (see the README's Classroom section).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from pathlib import Path
from typing import Any

import click

from grader.errors import ConfigError, SubmissionsError
from grader.model.results import CaseResult, GradingResults, SubmissionResult
from grader.model.schemacheck import validate
from grader.reports.api_views import integration_tests
from grader.reports.escaping import json_text, markdown_cell

SCHEMA = "classroom.schema.json"
VERSION = 1
MAX_TESTS = 2000
"""More tests than this would make the reporter's log unreadable: the points are refused instead."""
_EPS = 1e-6


@dataclass(frozen=True)
class Part:
    """One all-or-nothing share of a case: ``label`` and the points it is worth."""

    case: CaseResult
    label: str
    amount: Fraction
    passed: bool


def _fraction(value: float) -> Fraction:
    return Fraction(value).limit_denominator(10**6)


def _parts(case: CaseResult, credit: float) -> list[Part]:
    """A case's shares: a legal path (worth ``credit`` of it) and the optimal length (the rest).

    An unsolvable case, or a credit of 0 or 1, is one share. Pass/fail come from the points
    the case earned, so the shares always add up to the grader's own points.
    """
    total, earned = _fraction(case.max_points), case.points
    legal = _fraction(case.max_points * credit)
    if case.solvable is False or legal in (0, total):
        return [Part(case, "correct answer", total, earned >= float(total) - _EPS)] if total else []
    return [Part(case, "legal path", legal, earned >= float(legal) - _EPS),
            Part(case, "optimal length", total - legal, earned >= float(total) - _EPS)]


def _unit(amounts: Sequence[Fraction]) -> Fraction:
    """The largest weight that divides every amount."""
    numerator, denominator = 0, 1
    for amount in amounts:
        denominator = denominator * amount.denominator // gcd(denominator, amount.denominator)
    for amount in amounts:
        numerator = gcd(numerator, int(amount * denominator))
    return Fraction(numerator, denominator)


def _number(value: float | Fraction) -> float | int:
    """Whole points as ints, so the JSON reads ``3`` rather than ``3.0``."""
    value = float(value)
    return int(value) if value.is_integer() else round(value, 6)


def classroom_result(submission: SubmissionResult, suboptimal_credit: float,
                     cases: Sequence[str] | None = None) -> dict[str, Any]:
    """The reporter's ``result`` object for one submission of results.json: equal all-or-nothing tests.

    ``cases`` restricts it to those case ids (e.g. the visible ones), in the submission's
    order; ``max_score`` is then those cases' points. Raises ``ValueError`` when the points
    need more than :data:`MAX_TESTS` equal tests (points with no common unit, e.g. 1 and 0.001).
    """
    wanted = None if cases is None else set(cases)
    chosen = [case for case in submission.cases if wanted is None or case.case in wanted]
    parts = [part for case in chosen for part in _parts(case, suboptimal_credit)]
    unit = _unit([part.amount for part in parts]) if parts else Fraction(1)
    count = sum(int(part.amount / unit) for part in parts)
    if count > MAX_TESTS:
        raise ValueError(f"the case points need {count} equal tests (a common unit of {float(unit):g} point), "
                         f"more than {MAX_TESTS}: give the cases points with a larger common unit")
    tests = []
    for part in parts:
        copies = int(part.amount / unit)
        verdict = part.case.verdict.value
        for copy in range(copies):
            suffix = f" ({copy + 1} of {copies})" if copies > 1 else ""
            tests.append({
                "name": f"{part.case.case} [{verdict}]: {part.label}{suffix}",
                "status": "pass" if part.passed else "error" if verdict == "JE" else "fail",
                "score": _number(unit) if part.passed else 0,
                "max_score": _number(unit),
                "message": part.case.message,
                "line_no": 0,
                "execution_time": f"{round(part.case.seconds, 3):.2f}s",  # from the seconds results.json keeps
            })
    statuses = {test["status"] for test in tests}
    status = "error" if "error" in statuses else "fail" if "fail" in statuses else "pass"
    result = {"version": VERSION, "status": status, "max_score": _number(unit * count), "tests": tests}
    api = integration_tests(submission)
    if api:
        # The API tests' points are shares of unequal group weights (e.g. 60/21 of a point each), which no
        # common unit of all-or-nothing tests can carry without thousands of tests: the reporter's totals
        # would disagree again. So they travel beside its tests, for the step summary, not as its tests.
        result["api_tests"] = [{"name": test["name"], "passed": test["passed"], "score": _number(test["points"]),
                                "max_score": _number(test["max_points"]), "message": test["message"]} for test in api]
    validate(result, SCHEMA, "classroom result")
    return result


def reporter_totals(result: Mapping[str, Any]) -> tuple[float, float]:
    """The two totals autograding-grading-reporter@v1 computes from one runner's result.

    ``(logged, posted)``: the "Test Score" of its run log (passed tests / tests × max_score)
    and the points it posts to Classroom (the sum of the tests' scores). Equal for every
    result :func:`classroom_result` makes.
    """
    tests = result["tests"]
    passed = sum(1 for test in tests if test["status"] == "pass")
    logged = passed / len(tests) * float(result["max_score"] or 1) if tests else 0.0
    return logged, float(sum(test["score"] for test in tests))


def classroom_json(results: GradingResults) -> str:
    """``grade --format classroom``: the result JSON for the one submission graded, visible cases only.

    Hidden cases stay out of a student's repository, so they are left out here too.
    """
    submissions = results.submissions
    if len(submissions) != 1:
        raise SubmissionsError(f"--format classroom reports one submission (a student's repository), but "
                               f"{len(submissions)} were graded; point it at a folder holding one, or use --only")
    visible = [case.id for case in results.cases if case.visibility == "visible"]
    credit = float(results.assignment.get("suboptimal_credit", 0.5))
    try:
        result = classroom_result(submissions[0], credit, visible)
    except ValueError as exc:
        raise ConfigError(str(Path(results.testset_path or ".") / "manifest.json"), "$.cases",
                          str(exc)) from None
    return json_text(result)


def encode(result: Mapping[str, Any]) -> str:
    """The ``result`` step output: compact JSON, base64 (what the reporter decodes)."""
    return base64.b64encode(json.dumps(result, separators=(",", ":")).encode("utf-8")).decode("ascii")


def decode(text: str) -> dict[str, Any]:
    """The inverse of :func:`encode`."""
    return json.loads(base64.b64decode(text).decode("utf-8"))


def _cell(text: str) -> str:
    """One Markdown table cell: the step summary renders HTML, so student text is escaped as HTML, and no
    pipe or newline may break the row (:func:`~grader.reports.escaping.markdown_cell`)."""
    return markdown_cell(text)


def markdown_summary(result: Mapping[str, Any]) -> str:
    """A Markdown table of the cases in a ``result``, for ``$GITHUB_STEP_SUMMARY``."""
    score = sum(float(test["score"]) for test in result["tests"])
    passed = sum(1 for test in result["tests"] if test["status"] == "pass")
    lines = [f"## N-puzzle autograding: {_number(score)} / {result['max_score']} points", "",
             f"{passed} of {len(result['tests'])} tests passed (each case is a legal-path and an optimal-length "
             "share, in equal tests).", "",
             "| test | result | points | message |", "| --- | --- | ---: | --- |"]
    for test in result["tests"]:
        mark = {"pass": "✅", "fail": "❌"}.get(test["status"], "⚠️")
        max_score = f" / {test['max_score']}" if "max_score" in test else ""
        lines.append(f"| {_cell(test['name'])} | {mark} {test['status']} | {test['score']}{max_score} "
                     f"| {_cell(test['message'])} |")
    api = result.get("api_tests", [])
    if api:
        earned = sum(float(test["score"]) for test in api)
        top = sum(float(test["max_score"]) for test in api)
        lines += ["", f"### API tests: {_number(earned)} / {_number(top)} points (in the grade of record, not in "
                      "Classroom's points)", "", "| test | result | points | message |", "| --- | --- | ---: | --- |"]
        for test in api:
            mark = "✅ pass" if test["passed"] else "❌ fail"
            lines.append(f"| {_cell(test['name'])} | {mark} | {test['score']} / {test['max_score']} "
                         f"| {_cell(test['message'])} |")
    return "\n".join(lines) + "\n"


@click.group("classroom")
def classroom_command() -> None:
    """GitHub Classroom helpers: the template repository's grading files, and the run's summary."""


@classroom_command.command("template")
@click.argument("testset", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), required=True,
              help="The template repository's folder (the workflow goes to .github/workflows/classroom.yml).")
@click.option("--install-from", default=None,
              help="A pip requirement the workflow installs the grader from (the course's index or a git URL). "
                   "Default: a wheel of this grader, committed to .github/npuzzle-grader/.")
@click.option("--wheel", type=click.Path(path_type=Path), default=None,
              help="Commit this wheel (python -m build) instead of building one from this checkout.")
@click.option("--force", is_flag=True, help="Replace an existing workflow and testcases/ copy.")
def template_command(testset: Path, out: Path, install_from: str | None, wheel: Path | None, force: bool) -> int:
    """Write a Classroom template repository's workflow, visible cases and grader install."""
    from grader.integrations.classroom_template import write_template

    made = write_template(testset, out, install_from, wheel, force)
    click.echo(f"wrote {made.workflow} (installs {made.installs}) and {made.testcases} "
               f"({made.visible_cases} visible case(s); left out {len(made.left_out)} hidden)")
    click.echo("commit them to the template repository; hidden cases stay with the grade of record")
    return 0


@classroom_command.command("summary")
@click.argument("result_json", type=click.Path(path_type=Path, dir_okay=False))
def summary_command(result_json: Path) -> int:
    """Print the Markdown summary of a `grade --format classroom` result (for $GITHUB_STEP_SUMMARY)."""
    source = str(result_json)
    try:
        result = json.loads(result_json.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(source, "$", f"cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(source, "$", f"not valid JSON: {exc}") from None
    validate(result, SCHEMA, source)
    click.echo(markdown_summary(result), nl=False)
    return 0
