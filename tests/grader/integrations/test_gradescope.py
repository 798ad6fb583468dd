"""Gradescope: the autograder zip, and run_autograder against a fake /autograder root."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader.cli import entry
from grader.model.schemacheck import schema_problems
from tests.grader.sampleclass import SUBMISSIONS, TESTSET


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    assert entry(["gradescope", "build", "--testcases", str(TESTSET), "--out", str(out)]) == 0
    return out


def test_zip_has_the_scripts_at_its_root(autograder_zip: Path) -> None:
    with zipfile.ZipFile(autograder_zip) as archive:
        names = set(archive.namelist())
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    assert {"setup.sh", "run_autograder", "project/pyproject.toml", "testcases/manifest.json"} <= names
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert {"project/grader/integrations/gradescope.py", "project/grader/reports/templates/report.html",
            "project/grader/schemas/results.schema.json", "project/solver/board.py"} <= names
    assert not any("__pycache__" in name for name in names)


def test_setup_script_installs_python_a_jdk_and_the_project(autograder_zip: Path) -> None:
    with zipfile.ZipFile(autograder_zip) as archive:
        setup = archive.read("setup.sh").decode()
        pyproject = archive.read("project/pyproject.toml").decode()
    assert "openjdk-17-jdk-headless" in setup and "default-jdk" not in setup and "python3-venv" in setup
    assert '"$source_dir/project"' in setup
    assert subprocess.run(["bash", "-n"], input=setup, text=True, check=False).returncode == 0
    assert 'grade = "grader.cli:entry"' in pyproject and '"click' in pyproject and "pytest" not in pyproject


def _fake_root(tmp_path: Path, autograder_zip: Path, submission: Path | None) -> Path:
    """An /autograder as Gradescope lays it out: source/ (the zip), run_autograder, submission/."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    if submission is not None:
        shutil.copytree(submission, root / "submission", dirs_exist_ok=True)
    return root


def _run_autograder(root: Path, python: str = sys.executable) -> dict:
    # The bundled source, not this checkout, is what gets imported: PYTHONPATH points into the zip.
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": python,
           "PYTHONPATH": str(root / "source" / "project")}
    done = subprocess.run([str(root / "run_autograder")], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert schema_problems(results, "gradescope.schema.json") == []
    return results


def test_correct_submission_scores_full_marks(tmp_path: Path, autograder_zip: Path) -> None:
    results = _run_autograder(_fake_root(tmp_path, autograder_zip, SUBMISSIONS / "correct"))
    assert results["score"] == 6
    tests = [(t["name"], t["score"], t["max_score"], t["status"], t["visibility"]) for t in results["tests"]]
    assert tests == [("Build (compile check)", 0, 0, "passed", "visible"),
                     ("small-2x2", 1, 1, "passed", "visible"), ("easy-3x3", 2, 2, "passed", "visible"),
                     ("mid-3x3", 2, 2, "passed", "hidden"),
                     ("unsolvable-3x3", 1, 1, "passed", "hidden")]
    assert results["output"].startswith("Visible cases: 3 / 3 points on 2 cases (2 AC). Other cases are graded too")
    assert results["stdout_visibility"] == "hidden"
    assert results["execution_time"] >= 0


def test_broken_submission_shows_the_compile_error(tmp_path: Path, autograder_zip: Path) -> None:
    results = _run_autograder(_fake_root(tmp_path, autograder_zip, SUBMISSIONS / "compile-error"))
    assert results["score"] == 0
    build = results["tests"][0]
    assert build["status"] == "failed" and build["visibility"] == "visible"
    assert build["output"].startswith("main.py:3: SyntaxError")
    assert all(t["status"] == "failed" and t["output"].startswith("CE: ") for t in results["tests"][1:])


def test_suboptimal_keeps_partial_points(tmp_path: Path, autograder_zip: Path) -> None:
    results = _run_autograder(_fake_root(tmp_path, autograder_zip, SUBMISSIONS / "suboptimal"))
    assert results["score"] == 4
    assert {t["name"]: t["score"] for t in results["tests"][1:]} == {
        "small-2x2": 1, "easy-3x3": 1, "mid-3x3": 1, "unsolvable-3x3": 1}


def test_grader_fault_still_writes_results(tmp_path: Path, autograder_zip: Path) -> None:
    root = _fake_root(tmp_path, autograder_zip, SUBMISSIONS / "correct")
    (root / "source" / "testcases" / "manifest.json").write_text("{ not json")
    results = _run_autograder(root)
    assert results["score"] == 0
    assert results["output"].startswith("The autograder failed before it could grade this submission")
    assert "manifest.json" in results["output"]


def test_python_that_cannot_start_still_writes_results(tmp_path: Path, autograder_zip: Path) -> None:
    results = _run_autograder(_fake_root(tmp_path, autograder_zip, SUBMISSIONS / "correct"), python="/bin/false")
    assert results["score"] == 0 and "the grader could not start" in results["output"]
