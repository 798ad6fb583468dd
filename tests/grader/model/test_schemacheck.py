"""A hand-written schema's errors read as the one translator words a model's (grader.model.schemacheck)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.errors import ConfigError
from grader.model.schemacheck import schema_problems, validate
from tests.grader.model.test_results_model import _drop, _set, read_damaged

SAME_CONSTRAINT = [  # damages the generated schema and the model refuse for the same reason
    _set("1", "submissions", 0, "cases", 0, "points"),
    _set("OK", "submissions", 0, "cases", 0, "verdict"),
    _set(3, "submissions", 0, "cases", 1, "runs"),
    _set("yes", "submissions", 1, "build", "ok"),
    _set("", "submissions", 0, "id"),
    _set({"index": 0, "count": 3}, "shard"),  # an optional key: its value is wrong, not "expected null"
    _set(3, "format_version"),  # 1 and 2 are read
    _drop("submissions", 0, "cases", 0, "verdict"),
]


@pytest.mark.parametrize("damage", SAME_CONSTRAINT)
def test_a_schema_error_reads_as_the_models(tmp_path: Path, damage: Callable[[dict[str, Any]], None]) -> None:
    document, path, error = read_damaged(tmp_path, damage)
    where, message = schema_problems(document, "results.schema.json")[0]
    assert error.startswith(f"{path}::{where}: {message}")


GRADESCOPE_TEST = {"name": "case 1", "score": 1, "max_score": 1, "status": "passed", "output": "AC"}


@pytest.mark.parametrize("schema, document, where, message", [
    ("gradescope.schema.json", {"score": 1, "scroe": 2}, "$",
     "unknown key 'scroe' (expected one of: execution_time, extra_data, leaderboard, output, output_format, score, "
     "stdout_visibility, test_name_format, test_output_format, tests, visibility)"),
    ("gradescope.schema.json", {"score": 1, "tests": [{**GRADESCOPE_TEST, "hidden": True}]}, "$.tests[0]",
     "unknown key 'hidden' (expected one of: extra_data, max_score, name, name_format, number, output, "
     "output_format, score, status, tags, visibility)"),
    ("gradescope.schema.json", {"score": "10"}, "$.score", 'expected a number, found a string "10"'),
    ("gradescope.schema.json", {"score": 1, "visibility": "public"}, "$.visibility",
     "expected one of 'hidden', 'after_due_date', 'after_published' or 'visible', found \"public\""),
    ("gradescope.schema.json", {"score": 1, "execution_time": -0.5}, "$.execution_time",
     "expected a value >= 0, found -0.5"),
    # Neither a total score nor one on every test: the closest choice says what is missing.
    ("gradescope.schema.json", {"tests": [{"name": "case 1"}]}, "$.score", "missing (a required key)"),
    ("gradescope.schema.json", {"score": 1, "leaderboard": [{"name": "moves", "value": None}]},
     "$.leaderboard[0].value", "expected a number or a string, found null"),
    ("classroom.schema.json", {"version": 2, "status": "pass", "max_score": 1, "tests": []}, "$.version",
     "expected 1, found 2"),
    ("classroom.schema.json", {"version": 1, "status": "pass", "max_score": 1,
                               "tests": [{"name": "", "status": "pass", "score": 1, "message": ""}]},
     "$.tests[0].name", 'expected a non-empty string, found ""'),
    ("classroom.schema.json", {"version": 1, "status": "pass", "max_score": 1, "tests": [{"name": "a"}]},
     "$.tests[0].message", "missing (a required key)"),
    ("classroom.schema.json", [], "$", "expected an object (a table), found a list"),
])
def test_a_hand_written_schemas_first_error(schema: str, document: Any, where: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate(document, schema, "result.json")
    assert str(info.value).startswith(f"result.json::{where}: {message}")


def test_a_valid_document_has_no_problems() -> None:
    assert schema_problems({"score": 1, "tests": [GRADESCOPE_TEST]}, "gradescope.schema.json") == []
