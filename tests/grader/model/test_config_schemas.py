"""The generated config schemas agree with the models: what the loader accepts, the published schema accepts,
and what it refuses for a constraint the schema can state, the schema refuses too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from grader.errors import ConfigError
from grader.model.schemacheck import schema_problems
from grader.testsets import presets
from grader.testsets.assignment import load_assignment
from grader.testsets.model import load_testset

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[3]
CONFIGS = REPO / "tests" / "grader" / "data" / "configs"
GOOD_TOML = sorted((CONFIGS / "good").glob("*.toml")) + [presets.preset_path(name) for name in presets.names()]
MANIFESTS = sorted((REPO / "testcases").glob("*/manifest.json"))
# Refused by the model for a rule the schema states (not for a missing file or an unset variable).
SCHEMA_STATED = ["credit-above-one", "empty-wording", "io-mode", "memory-too-small", "path-traversal", "preset-name",
                 "unknown-key", "command-without-run", "algs4-unknown-edition"]


@pytest.mark.parametrize("path", GOOD_TOML, ids=lambda p: p.stem)
def test_every_good_config_and_preset_passes_the_published_schema(path: Path) -> None:
    assert schema_problems(tomllib.loads(path.read_text(encoding="utf-8")), "assignment.schema.json") == []


@pytest.mark.parametrize("name", SCHEMA_STATED)
def test_a_config_the_model_refuses_the_schema_refuses(name: str) -> None:
    path = CONFIGS / "bad" / f"{name}.toml"
    with pytest.raises(ConfigError):
        load_assignment(path)
    assert schema_problems(tomllib.loads(path.read_text(encoding="utf-8")), "assignment.schema.json") != []


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda p: p.parent.name)
def test_every_bundled_manifest_loads_and_passes_the_published_schema(manifest: Path) -> None:
    load_testset(manifest.parent)
    assert schema_problems(json.loads(manifest.read_text(encoding="utf-8")), "manifest.schema.json") == []
