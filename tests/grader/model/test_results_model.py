"""The results vocabulary (grader/model): one definition gives the file, the reader and the published schema."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from grader.errors import ConfigError
from grader.model import schemas
from grader.model.results import GradingResults
from grader.model.schemacheck import schema_problems
from grader.reports.json_results import read_results, results_from_json, results_text

V1 = Path(__file__).resolve().parent / "data" / "results-v1.json"
"""Written by the format-1 writer before grader/model existed (API tests, a re-run, a skipped case, a failed
build with its library, a build never made, a slice of a sharded run with the others missing)."""


def test_committed_schema_files_are_what_the_models_generate() -> None:
    assert schemas.stale() == [], "run: python -m grader.model.schemas --write"


def test_a_format_1_file_loads_and_is_written_back_byte_for_byte() -> None:
    results = read_results(V1)
    assert isinstance(results, GradingResults)
    assert results_text(results, pretty=True) == V1.read_text(encoding="utf-8")
    assert (results.submissions[0].score, results.max_score, results.shard.count) == (21.0, 43.0, 3)


def test_the_published_schema_accepts_what_the_model_writes() -> None:
    assert schema_problems(read_results(V1).to_json(), "results.schema.json") == []


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def apply(document: dict[str, Any]) -> None:
        node = document
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
    return apply


@pytest.mark.parametrize("older", [
    _drop("testset_hash"), _drop("shard"), _drop("missing_slices"), _drop("api_points"),
    _drop("cases", 0, "board"), _drop("submissions", 0, "api"), _drop("submissions", 0, "cases", 1, "runs"),
    _drop("submissions", 1, "build", "algs4"), _drop("submissions", 0, "source"),
], ids=["no-hash", "no-shard", "no-missing", "no-api-points", "no-board", "no-api", "no-runs", "no-algs4",
        "no-source"])
def test_older_format_1_files_without_later_keys_still_load(older: Callable[[dict[str, Any]], None]) -> None:
    document = json.loads(V1.read_text(encoding="utf-8"))
    older(document)
    assert results_from_json(document).submissions[0].id == "alice"


def _set(value: Any, *path: Any) -> Callable[[dict[str, Any]], None]:
    def apply(document: dict[str, Any]) -> None:
        node = document
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return apply


@pytest.mark.parametrize("damage, where, message", [
    (_set("1", "submissions", 0, "cases", 0, "points"), "$.submissions[0].cases[0].points",
     'expected a number, found a string "1"'),
    (_set("OK", "submissions", 0, "cases", 0, "verdict"), "$.submissions[0].cases[0].verdict", "expected one of"),
    (_set([[1, 2, 3]], "submissions", 0, "cases", 0, "path"), "$.submissions[0].cases[0].path[0]",
     "expected a board of at least 4 integers >= 0, found [1, 2, 3]"),
    (_set(-1, "submissions", 0, "cases", 0, "path", 1, 0), "$.submissions[0].cases[0].path[1]",
     "expected a board of at least 4 integers >= 0, found [-1, 0, 1, 3]"),
    (_set(3, "submissions", 0, "cases", 1, "runs"), "$.submissions[0].cases[1].runs", "expected a value <= 2"),
    (_set("yes", "submissions", 1, "build", "ok"), "$.submissions[1].build.ok", 'expected true or false, found a string "yes"'),
    (_set("", "submissions", 0, "id"), "$.submissions[0].id", "expected a non-empty string"),
    (_set("speed", "submissions", 0, "api", 0, "group"), "$.submissions[0].api[0].group", "expected one of"),
    (_set({"index": 0, "count": 3}, "shard"), "$.shard.index", "expected a value >= 1, found 0"),
    (_set(2, "format_version"), "$.format_version", "expected 1, found 2"),
    (_drop("submissions", 0, "cases", 0, "verdict"), "$.submissions[0].cases[0].verdict", "missing"),
])
def test_a_damaged_results_file_names_the_path(tmp_path: Path, damage: Callable[[dict[str, Any]], None], where: str,
                                               message: str) -> None:
    _, path, error = read_damaged(tmp_path, damage)
    assert error.startswith(f"{path}::{where}: {message}")


def read_damaged(tmp_path: Path, damage: Callable[[dict[str, Any]], None]) -> tuple[dict[str, Any], Path, str]:
    """The sample results.json after ``damage``, where it was written, and what reading it raised."""
    document = json.loads(V1.read_text(encoding="utf-8"))
    damage(document)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        read_results(path)
    return document, path, str(info.value)


def test_records_are_slotted_and_frozen() -> None:
    case = read_results(V1).submissions[0].cases[0]
    assert not hasattr(case, "__dict__")
    with pytest.raises(Exception):
        case.points = 0.0  # type: ignore[misc]


def test_a_copy_is_not_damaged_by_reading() -> None:
    document = json.loads(V1.read_text(encoding="utf-8"))
    kept = copy.deepcopy(document)
    results_from_json(document)
    assert document == kept
