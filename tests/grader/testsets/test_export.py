"""grade testcases export --visible: a copy with only the visible cases, and no hidden board anywhere in it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.cli import entry
from tests.grader.sampleclass import TESTSET
from tests.support import REPO


def _boards(folder: Path) -> set[bytes]:
    return {p.read_bytes() for p in folder.rglob("*.txt")}


@pytest.mark.parametrize("source", [TESTSET, REPO / "testcases" / "cmpe160"], ids=["sample", "cmpe160"])
def test_only_visible_cases_and_no_hidden_board(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "template" / "testcases"
    assert entry(["testcases", "export", str(source), "--visible", "--out", str(out)]) == 0
    original = json.loads((source / "manifest.json").read_text(encoding="utf-8"))
    exported = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    visible = [case for case in original["cases"] if case["visibility"] == "visible"]
    assert exported["cases"] == visible and exported["name"] == original["name"]
    hidden = {(source / case["input"]).read_bytes() for case in original["cases"] if case["visibility"] != "visible"}
    assert hidden and not hidden & _boards(out)
    if (source / "assignment.toml").exists():
        assert (out / "assignment.toml").read_bytes() == (source / "assignment.toml").read_bytes()
    assert entry(["testcases", "validate", str(out)]) == 0


def test_a_stray_board_file_stays_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "set"
    shutil.copytree(TESTSET, copy)
    (copy / "notes").mkdir()
    shutil.copy(TESTSET / "mid.txt", copy / "notes" / "old-hidden-case.txt")  # a hidden board, unreferenced
    (copy / "notes" / "README.txt").write_text("How the cases were chosen.\n")
    out = tmp_path / "out"
    assert entry(["testcases", "export", str(copy), "--visible", "--out", str(out)]) == 0
    assert not (out / "notes" / "old-hidden-case.txt").exists() and (out / "notes" / "README.txt").exists()
    assert "left out 2 cases that are not visible" in capsys.readouterr().out


def test_refuses_to_overwrite_or_to_write_inside_the_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert entry(["testcases", "export", str(TESTSET), "--visible", "--out", str(out)]) == 0
    assert entry(["testcases", "export", str(TESTSET), "--visible", "--out", str(out)]) == 6
    assert "already exists (use --force" in capsys.readouterr().err
    assert entry(["testcases", "export", str(TESTSET), "--visible", "--out", str(out), "--force"]) == 0
    copy = tmp_path / "set"
    shutil.copytree(TESTSET, copy)
    assert entry(["testcases", "export", str(copy), "--visible", "--out", str(copy / "inner")]) == 6
    assert "must go outside the test set" in capsys.readouterr().err
