"""A new test set comes with its assignment.toml, so `grade` never guesses how submissions read and answer.

`import` and `generate` write one from --preset (kept when one is there); `validate` reports a set without one,
and accepts the files the assignment names (a jar kept in the set is not an "unknown file").
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.testsets.assignment import load_assignment
from tests.grader.testsets.helpers import TINY, grade, tiny_copy


@pytest.mark.parametrize("preset, io", [("cmpe160", "files"), ("coursera-princeton", "argv")])
def test_import_writes_the_assignment_of_the_preset(preset: str, io: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    code, stdout, _ = grade(capsys, "testcases", "import", TINY / "cases", "--out", out, "--preset", preset, "-q",
                            "--expect", "hardest.txt=31", "--expect", "one-move.txt=1",
                            "--expect", "unsolvable.txt=unsolvable")
    assert code == 0, stdout
    assignment = load_assignment(out / "assignment.toml")
    assert assignment.preset == preset and assignment.io == io
    assert f"wrote the assignment (preset {preset})" in stdout


def test_an_existing_assignment_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    out.mkdir()
    (out / "assignment.toml").write_text('io = "stdin"\n')
    assert grade(capsys, "testcases", "import", TINY / "cases", "--out", out, "-q", "--skip-bad")[0] == 0
    assert (out / "assignment.toml").read_text() == 'io = "stdin"\n'


def test_validate_reports_a_set_without_an_assignment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tiny_copy(tmp_path)
    (root / "assignment.toml").unlink()
    code, out, _ = grade(capsys, "testcases", "validate", root)
    assert code == 8 and f"{root}/assignment.toml: no assignment.toml, so `grade` refuses this set" in out


def test_validate_accepts_the_files_the_assignment_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tiny_copy(tmp_path)
    (root / "lib").mkdir()
    shutil.copy(root / "manifest.json", root / "lib" / "algs4.jar")  # any file: validate only looks at names
    (root / "stray.txt").write_text("not named anywhere\n")
    (root / "assignment.toml").write_text('[java]\nclasspath = ["lib/algs4.jar"]\n')
    code, out, _ = grade(capsys, "testcases", "validate", root)
    assert code == 8
    assert "algs4.jar" not in out and f"{root}/stray.txt: unknown file" in out
