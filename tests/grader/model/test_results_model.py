"""The results vocabulary (grader/model): one definition gives the file, the reader and the published schema."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.errors import ConfigError
from grader.model import pathcode, schemas
from grader.model.results import GradingResults, results_json
from grader.model.schemacheck import schema_problems
from grader.reports.escaping import json_text
from grader.reports.json_results import read_results, results_from_json, results_pieces, results_text

V1 = Path(__file__).resolve().parent / "data" / "results-v1.json"
"""Written by the format-1 writer before grader/model existed (API tests, a re-run, a skipped case, a failed
build with its library, a build never made, a slice of a sharded run with the others missing)."""


def test_committed_schema_files_are_what_the_models_generate() -> None:
    assert schemas.stale() == [], "run: python -m grader.model.schemas --write"


_DEFAULTS = {"visibility": "visible", "cpu_seconds": None, "exit_code": None, "signal": None, "moves": None,
             "optimal_moves": None, "solvable": None, "problems": [], "notes": [], "path": None, "stderr": ""}
"""A case result's fields that format 2 leaves out when they hold these values."""


def _as_format_2(document: dict[str, Any]) -> dict[str, Any]:
    """What format 2 makes of a format-1 document: paths coded, a case's default values left out."""
    new = {**copy.deepcopy(document), "format_version": 2}
    for submission in new["submissions"]:
        submission["cases"] = [{key: pathcode.encode(value) if key == "path" else value
                                for key, value in case.items() if _DEFAULTS.get(key, ()) != value}
                               for case in submission["cases"]]
    return new


def test_a_format_1_file_loads_and_is_written_back_as_format_2(tmp_path: Path) -> None:
    results = read_results(V1)
    assert isinstance(results, GradingResults)
    document = json.loads(V1.read_text(encoding="utf-8"))
    written = results_text(results, pretty=True)
    assert json.loads(written) == _as_format_2(document)
    assert any(isinstance(case.get("path"), dict) for s in json.loads(written)["submissions"] for case in s["cases"])
    again = tmp_path / "results.json"
    again.write_text(written, encoding="utf-8")
    assert dataclasses.replace(read_results(again), format_version=1) == results  # the same results, read in format 2
    assert results_text(read_results(again), pretty=True) == written
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
    (_set("yes", "submissions", 1, "build", "ok"), "$.submissions[1].build.ok",
     'expected true or false, found a string "yes"'),
    (_set("", "submissions", 0, "id"), "$.submissions[0].id", "expected a non-empty string"),
    (_set("speed", "submissions", 0, "api", 0, "group"), "$.submissions[0].api[0].group", "expected one of"),
    (_set({"index": 0, "count": 3}, "shard"), "$.shard.index", "expected a value >= 1, found 0"),
    (_set(3, "format_version"), "$.format_version", "expected one of 1 or 2, found 3"),
    (_set({"first": [0, 1, 2, 3], "steps": "U"}, "submissions", 0, "cases", 0, "path"),
     "$.submissions[0].cases[0].path", "step 1 moves the blank 'U' off the board"),
    (_set({"first": [0, 1, 2], "steps": ""}, "submissions", 0, "cases", 0, "path"),
     "$.submissions[0].cases[0].path.first", "expected a board of at least 4 integers >= 0, found [0, 1, 2]"),
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
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.points = 0.0  # type: ignore[misc]


def test_a_copy_is_not_damaged_by_reading() -> None:
    document = json.loads(V1.read_text(encoding="utf-8"))
    kept = copy.deepcopy(document)
    results_from_json(document)
    assert document == kept


@pytest.mark.parametrize("pretty", [False, True], ids=["compact", "pretty"])
@pytest.mark.parametrize("count", [0, 1, 3])
def test_results_json_written_piece_by_piece_is_the_whole_documents_text(pretty: bool, count: int) -> None:
    """results.json is written one submission at a time (a class read back from the journal is never whole in
    memory): the text must be exactly the whole document's, whatever the number of submissions."""
    results = read_results(V1)
    results = dataclasses.replace(results, submissions=results.submissions[:count])
    assert "".join(results_pieces(results, pretty)) == json_text(results_json(results), pretty=pretty) + "\n"
