"""assignment.toml: good files load with their settings; each bad file gets one file::$.path message."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import ConfigError
from grader.testsets.assignment import Assignment, load_assignment

DATA = Path(__file__).resolve().parent.parent / "data" / "configs"


@pytest.mark.parametrize("path", sorted((DATA / "bad").glob("*.toml")), ids=lambda p: p.stem)
def test_bad_config_names_file_and_json_path(path: Path) -> None:
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    with pytest.raises(ConfigError) as info:
        load_assignment(path)
    assert str(info.value).startswith(f"{path}::")
    assert expected in str(info.value)


def test_missing_file_means_defaults() -> None:
    assignment = load_assignment(None)
    assert assignment == Assignment()
    assert (assignment.io, assignment.blank_first, assignment.limits.wall_seconds) == ("files", False, 10.0)


def test_princeton_config() -> None:
    assignment = load_assignment(DATA / "good" / "princeton-argv.toml")
    assert assignment.io == "argv"
    assert assignment.limits.memory_mb == 512 and assignment.limits.wall_seconds == 5
    assert assignment.unsolvable_wordings == ("Unsolvable puzzle", "No solution possible")
    assert assignment.java.classpath == ((DATA / "good" / "lib").resolve(),)
    assert assignment.java.main_class == "PuzzleChecker"


def test_blank_first_command_config() -> None:
    assignment = load_assignment(DATA / "good" / "blank-first-stdin.toml")
    assert assignment.blank_first and assignment.strict and assignment.suboptimal_credit == 0
    assert assignment.command is not None and assignment.command.run == ("./solve", "{input}")
    assert assignment.to_json()["goal"] == "blank-first"
