"""GitHub Classroom: one submission's results as the autograding reporter's ``result`` JSON.

``classroom-resources/autograding-grading-reporter`` reads, for each runner id listed in
its ``runners`` input, the environment variable ``<RUNNER>_RESULTS``: a base64 JSON
object ``{version, status, max_score, tests: [{name, status, score, message, …}]}``.
It adds up each test's ``score`` against the object's ``max_score`` and posts that
total to Classroom, so one test per case keeps each case's partial points (a
suboptimal path's partial credit survives). The template workflow that runs this lives
in ``.github/classroom/autograding.yml``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from grader.errors import ConfigError, SubmissionsError
from grader.reports.api_views import integration_tests
from grader.schemacheck import validate

SCHEMA = "classroom.schema.json"
VERSION = 1
STATUS = {"AC": "pass", "JE": "error"}
"""Test status by verdict; every other verdict is a ``fail``."""


def _number(value: float) -> float | int:
    """Whole points as ints, so the JSON reads ``3`` rather than ``3.0``."""
    return int(value) if float(value).is_integer() else round(float(value), 6)


def classroom_result(submission: Mapping[str, Any], cases: Sequence[str] | None = None) -> dict[str, Any]:
    """The reporter's ``result`` object for one submission of results.json.

    ``cases`` restricts it to those case ids (e.g. the visible ones), keeping their order
    in the submission; ``max_score`` is then the sum of those cases' points.
    """
    wanted = None if cases is None else set(cases)
    chosen = [case for case in submission["cases"] if wanted is None or case["case"] in wanted]
    tests = []
    for case in chosen:
        verdict = case["verdict"]
        tests.append({
            "name": f"{case['case']} ({verdict})",
            "status": STATUS.get(verdict, "fail"),
            "score": _number(case["points"]),
            "max_score": _number(case["max_points"]),
            "message": case.get("message", ""),
            "line_no": 0,
            "execution_time": f"{float(case.get('seconds') or 0):.2f}s",
        })
    api = integration_tests(submission)  # API tests are visible: they always go with the cases
    tests += [{"name": test["name"], "status": "pass" if test["passed"] else "fail",
               "score": _number(test["points"]), "max_score": _number(test["max_points"]),
               "message": test["message"], "line_no": 0, "execution_time": "0.00s"} for test in api]
    statuses = {test["status"] for test in tests}
    status = "error" if "error" in statuses else "fail" if "fail" in statuses else "pass"
    result = {"version": VERSION, "status": status,
              "max_score": _number(sum(float(case["max_points"]) for case in chosen)
                                   + sum(test["max_points"] for test in api)), "tests": tests}
    validate(result, SCHEMA, "classroom result")
    return result


def classroom_json(results: Mapping[str, Any]) -> str:
    """``grade --format classroom``: the result JSON for the one submission graded, visible cases only.

    Hidden cases stay out of a student's repository, so they are left out here too.
    """
    submissions = results["submissions"]
    if len(submissions) != 1:
        raise SubmissionsError(f"--format classroom reports one submission (a student's repository), but "
                               f"{len(submissions)} were graded; point it at a folder holding one, or use --only")
    visible = [case["id"] for case in results.get("cases", []) if case.get("visibility", "visible") == "visible"]
    return json.dumps(classroom_result(submissions[0], visible), ensure_ascii=False)


def encode(result: Mapping[str, Any]) -> str:
    """The ``result`` step output: compact JSON, base64 (what the reporter decodes)."""
    return base64.b64encode(json.dumps(result, separators=(",", ":")).encode("utf-8")).decode("ascii")


def decode(text: str) -> dict[str, Any]:
    """The inverse of :func:`encode`."""
    return json.loads(base64.b64decode(text).decode("utf-8"))


def _cell(text: str) -> str:
    """One Markdown table cell: no pipes or newlines may break the row."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first.replace("|", "\\|")[:200]


def markdown_summary(result: Mapping[str, Any]) -> str:
    """A Markdown table of the cases in a ``result``, for ``$GITHUB_STEP_SUMMARY``."""
    score = sum(float(test["score"]) for test in result["tests"])
    passed = sum(1 for test in result["tests"] if test["status"] == "pass")
    lines = [f"## N-puzzle autograding: {_number(score)} / {result['max_score']} points", "",
             f"{passed} of {len(result['tests'])} cases passed.", "",
             "| case | result | points | message |", "| --- | --- | ---: | --- |"]
    for test in result["tests"]:
        mark = {"pass": "✅", "fail": "❌"}.get(test["status"], "⚠️")
        max_score = f" / {test['max_score']}" if "max_score" in test else ""
        lines.append(f"| {_cell(test['name'])} | {mark} {test['status']} | {test['score']}{max_score} "
                     f"| {_cell(test['message'])} |")
    return "\n".join(lines) + "\n"


@click.group("classroom")
def classroom_command() -> None:
    """GitHub Classroom helpers (the template workflow is .github/classroom/autograding.yml)."""


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
