"""The [api] part's points are shared out by group weight, whatever is skipped, and the config is checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.apitests.catalogue import TESTS, plan
from grader.errors import ConfigError
from grader.testsets.apiconfig import ApiConfig, api_from_dict
from grader.testsets.assignment import assignment_from_dict


@pytest.mark.parametrize("language", ["java", "python"])
@pytest.mark.parametrize("skip", [(), ("board.memory",), ("timing.*", "board.memory")])
def test_points_add_up_to_the_part(language, skip):
    config = api_from_dict({"points": 40, "skip": list(skip)})
    planned = plan(config, language)
    assert sum(p.max_points for p in planned) == pytest.approx(40)
    assert not any(p.test.name.startswith("timing.") for p in planned) or "timing.*" not in skip


def test_group_weights_follow_the_assessment():
    planned = plan(ApiConfig(points=95), "python")
    by_group = {}
    for p in planned:
        by_group[p.test.group] = by_group.get(p.test.group, 0) + p.max_points
    assert by_group == pytest.approx({"correctness": 60, "memory": 20, "timing": 10, "api": 5})


def test_names_are_unique():
    assert len({t.name for t in TESTS}) == len(TESTS)


@pytest.mark.parametrize("table, where", [
    ({"points": -1}, "$.api.points"),
    ({"weights": {"speed": 3}}, "$.api.weights"),
    ({"python_names": ["camelCase"]}, "$.api.python_names[0]"),
    ({"max_depth": 40}, "$.api.max_depth"),
    ({"languages": []}, "$.api.languages"),
])
def test_bad_api_tables_name_the_key(table, where):
    with pytest.raises(ConfigError) as error:
        assignment_from_dict({"api": table}, "assignment.toml", Path("."))
    assert f"assignment.toml::{where}" in str(error.value)
