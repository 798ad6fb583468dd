"""results.json: the whole grading as JSON, checked against its schema when written and when read back."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import fastjsonschema

from grader.errors import ConfigError
from grader.judging.apiresult import ApiResult
from grader.judging.verdicts import Verdict
from grader.reports.escaping import json_text
from grader.reports.results import CaseResult, GradingResults, SubmissionResult
from grader.schemacheck import load_schema, schema_problems
from solver.fileio import write_atomic

SCHEMA = "results.schema.json"
TOP_LEVEL = {"format_version", "testset", "testset_path", "interrupted", "strict", "isolation", "assignment",
             "cases", "max_score", "submissions", "api_points"}


def results_problems(data: Any) -> list[tuple[str, str]]:
    """Every schema problem of a results document, as ``(json_path, message)``.

    A sound document is accepted by the compiled schema (:func:`_fast_validator`). Otherwise the
    printed paths (``submissions[i].cases[j].path``: a class's worth of boards, millions of numbers)
    are checked by a plain loop and everything else by jsonschema, for precise messages.
    """
    if _fast_validator()(data):
        return []
    if not isinstance(data, dict) or not isinstance(data.get("submissions"), list):
        return schema_problems(data, SCHEMA)
    light, loose = dict(data), []
    light["submissions"] = []
    for s_index, submission in enumerate(data["submissions"]):
        if not isinstance(submission, dict) or not isinstance(submission.get("cases"), list):
            light["submissions"].append(submission)
            continue
        cases = []
        for c_index, case in enumerate(submission["cases"]):
            if isinstance(case, dict) and isinstance(case.get("path"), list):
                loose += _path_problems(case["path"], f"$.submissions[{s_index}].cases[{c_index}].path")
                cases.append({**case, "path": None})
            else:
                cases.append(case)
        light["submissions"].append({**submission, "cases": cases})
    return schema_problems(light, SCHEMA) + loose


@functools.cache
def _fast_validator() -> Callable[[Any], bool]:
    """The schema compiled by fastjsonschema: it accepts a sound document in about a second where
    jsonschema takes a minute; only a document it refuses goes on to jsonschema, for the messages."""
    check = fastjsonschema.compile(load_schema(SCHEMA))

    def valid(data: Any) -> bool:
        try:
            check(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True
    return valid


def _path_problems(path: list[Any], where: str) -> list[tuple[str, str]]:
    """The schema's rule for a printed path: boards of at least 4 integers >= 0."""
    for index, board in enumerate(path):
        if not isinstance(board, list) or len(board) < 4 or not all(
                type(tile) is int and tile >= 0 for tile in board):
            return [(f"{where}[{index}]", f"expected a board of at least 4 integers >= 0, found {board!r:.80}")]
    return []


def results_text(results: GradingResults, pretty: bool = False) -> str:
    """results.json's text: compact (a class of 1,000 is a fifth of the indented size), indented if ``pretty``."""
    data = results.to_json()
    problems = results_problems(data)
    if problems:  # the grader's own bug: never write a file others cannot trust
        path, message = problems[0]
        raise AssertionError(f"results.json would break its schema at {path}: {message}")
    return json_text(data, pretty=pretty) + "\n"


def write_json(results: GradingResults, path: Path, pretty: bool = False) -> None:
    write_atomic(path, results_text(results, pretty))


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
    problems = results_problems(data)
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
