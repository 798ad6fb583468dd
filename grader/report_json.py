"""results.json: the whole grading as JSON, checked against its schema before it is written."""

from __future__ import annotations

import json
from pathlib import Path

from grader.results import GradingResults
from grader.schemacheck import schema_problems
from solver.fileio import write_atomic

SCHEMA = "results.schema.json"


def results_text(results: GradingResults) -> str:
    data = results.to_json()
    problems = schema_problems(data, SCHEMA)
    if problems:  # the grader's own bug: never write a file others cannot trust
        path, message = problems[0]
        raise AssertionError(f"results.json would break its schema at {path}: {message}")
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_json(results: GradingResults, path: Path) -> None:
    write_atomic(path, results_text(results))
