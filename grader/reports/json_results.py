"""results.json: the whole grading as JSON, checked against its schema when written and when read back."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from grader.errors import ConfigError
from grader.judging.apiresult import ApiResult
from grader.judging.verdicts import Verdict
from grader.reports.results import CaseResult, GradingResults, SubmissionResult
from grader.schemacheck import schema_problems
from solver.fileio import write_atomic

SCHEMA = "results.schema.json"
TOP_LEVEL = {"format_version", "testset", "testset_path", "interrupted", "strict", "isolation", "assignment",
             "cases", "max_score", "submissions", "api_points"}


def results_text(results: GradingResults) -> str:
    data = results.to_json()
    problems = schema_problems(data, SCHEMA)
    if problems:  # the grader's own bug: never write a file others cannot trust
        path, message = problems[0]
        raise AssertionError(f"results.json would break its schema at {path}: {message}")
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_json(results: GradingResults, path: Path) -> None:
    write_atomic(path, results_text(results))


def read_results(path: Path) -> dict[str, Any]:
    """A results.json, parsed and checked against its schema (errors as ``file::$.path: message``)."""
    source = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(source, "$", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(source, "$", f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(source, "$", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    problems = schema_problems(data, SCHEMA)
    if problems:
        raise ConfigError(source, *problems[0])
    return data


def case_from_json(entry: Mapping[str, Any]) -> CaseResult:
    """One case result back from its JSON (the inverse of ``CaseResult.to_json``)."""
    values = {key: entry[key] for key in _CASE_FIELDS if key in entry}
    values["verdict"] = Verdict(entry["verdict"])
    values["problems"] = tuple(entry.get("problems", ()))
    values["notes"] = tuple(entry.get("notes", ()))
    if entry.get("path") is not None:
        values["path"] = tuple(tuple(board) for board in entry["path"])
    return CaseResult(**values)


_CASE_FIELDS = frozenset(field.name for field in dataclasses.fields(CaseResult))


def results_from_json(data: Mapping[str, Any]) -> GradingResults:
    """The results model back from its JSON (the inverse of ``GradingResults.to_json``)."""
    submissions = tuple(
        SubmissionResult(id=s["id"], language=s["language"], build=dict(s["build"]),
                         cases=tuple(case_from_json(c) for c in s["cases"]), max_score=s["max_score"],
                         complete=s.get("complete", True), source=s.get("source", ""),
                         api=tuple(ApiResult.from_json(entry) for entry in s.get("api", ())))
        for s in data["submissions"])
    return GradingResults(testset=data["testset"], testset_path=data.get("testset_path", ""),
                          assignment=dict(data["assignment"]), cases=tuple(dict(c) for c in data["cases"]),
                          submissions=submissions, isolation=tuple(data.get("isolation", ())),
                          interrupted=data.get("interrupted", False), strict=data.get("strict", False),
                          extra={k: v for k, v in data.items() if k not in TOP_LEVEL},
                          api_points=float(data.get("api_points", 0.0)))
