"""GitHub Classroom: the result JSON, the template workflow's schema, and its run: steps run locally."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from grader.integrations.classroom import classroom_result, decode, encode, markdown_summary
from grader.cli import entry
from grader.schemacheck import schema_problems
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded
from tests.support import REPO

WORKFLOW = REPO / ".github" / "classroom" / "autograding.yml"


def _submission(graded: Graded, sid: str) -> dict:
    return next(s for s in graded.document["submissions"] if s["id"] == sid)


def test_partial_points_survive_case_by_case(graded: Graded) -> None:
    result = classroom_result(_submission(graded, "suboptimal"))
    assert [(t["name"], t["status"], t["score"], t["max_score"]) for t in result["tests"]] == [
        ("small-2x2 (AC)", "pass", 1, 1), ("easy-3x3 (SUB)", "fail", 1, 2), ("mid-3x3 (SUB)", "fail", 1, 2),
        ("unsolvable-3x3 (AC)", "pass", 1, 1)]
    # The reporter adds up tests[].score against max_score: that must be the grader's own score.
    assert sum(t["score"] for t in result["tests"]) == 4 and result["max_score"] == 6
    assert result["status"] == "fail" and schema_problems(result, "classroom.schema.json") == []


def test_visible_cases_only_and_encoding_round_trip(graded: Graded) -> None:
    result = classroom_result(_submission(graded, "correct"), ["small-2x2", "easy-3x3"])
    assert result["status"] == "pass" and result["max_score"] == 3
    assert decode(encode(result)) == result


def test_format_classroom_needs_exactly_one_submission(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("alice", "bob"):  # quick to grade: neither builds
        shutil.copytree(SUBMISSIONS / "compile-error", tmp_path / "class" / name)
    assert entry(["run", str(tmp_path / "class"), "--testcases", str(TESTSET), "--format", "classroom",
                  "--out", str(tmp_path / "out"), "--no-progress"]) == 5
    assert "--format classroom reports one submission (a student's repository), but 2 were graded" \
        in capsys.readouterr().err


def test_summary_lists_every_case(graded: Graded) -> None:
    text = markdown_summary(classroom_result(_submission(graded, "illegal-move")))
    assert text.startswith("## N-puzzle autograding: 1 / 6 points\n")
    assert "| easy-3x3 (WA) | ❌ fail | 0 / 2 | output.txt:7: step 1 (boards on lines 2 and 7): not a legal move" in text
    assert text.count("\n| ") == 6  # the header, its rule and four cases


# --------------------------------------------------------------------------- the template workflow
def _workflow() -> dict:
    return YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))


def test_workflow_passes_the_github_workflow_schema() -> None:
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(WORKFLOW)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_workflow_has_the_shape_classroom_picks_up() -> None:
    workflow = _workflow()
    assert workflow["name"] == "Autograding Tests"
    assert list(workflow["jobs"]) == ["run-autograding-tests"]
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    reporter = steps[-1]
    assert reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    # The reporter reads <RUNNER>_RESULTS for each id in `runners`: the grading step's base64 output.
    runner = reporter["with"]["runners"]
    grading = next(step for step in steps if step.get("id") == runner)
    assert reporter["env"] == {f"{runner.upper()}_RESULTS": f"${{{{ steps.{grading['id']}.outputs.result }}}}"}
    # Run scripts read only the environment, so running them locally runs exactly what CI runs.
    assert all("${{" not in step["run"] for step in steps if "run" in step)


def _run_steps(repo: Path, temp: Path) -> tuple[Path, Path]:
    workflow = _workflow()
    output, summary = temp / "github_output", temp / "step_summary"
    output.touch()
    summary.touch()
    env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "HOME": str(temp),
           "GITHUB_WORKSPACE": str(repo), "GITHUB_REPOSITORY": "puzzle-course/astar-alice",
           "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(temp),
           **{k: str(v) for k, v in workflow["env"].items()}}
    for step in workflow["jobs"]["run-autograding-tests"]["steps"]:
        if "run" not in step:
            continue
        # GitHub's default shell on Linux: bash --noprofile --norc -eo pipefail {0}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=repo,
                              env={**env, **step.get("env", {})}, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"step {step['name']!r} failed:\n{done.stdout}\n{done.stderr}"
    return output, summary


def test_workflow_steps_grade_a_student_repo(tmp_path: Path) -> None:
    # A student's repository: their code at the root, the visible cases in testcases/.
    repo = tmp_path / "astar-alice"
    shutil.copytree(SUBMISSIONS / "suboptimal", repo)
    manifest = json.loads((TESTSET / "manifest.json").read_text())
    manifest["cases"] = [case for case in manifest["cases"] if case["visibility"] == "visible"]
    (repo / "testcases").mkdir()
    (repo / "testcases" / "manifest.json").write_text(json.dumps(manifest))
    for case in manifest["cases"]:
        shutil.copy(TESTSET / case["input"], repo / "testcases" / case["input"])
    temp = tmp_path / "runner-temp"
    temp.mkdir()

    output, summary = _run_steps(repo, temp)

    lines = output.read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith("result=")
    result = decode(lines[0].removeprefix("result="))
    assert schema_problems(result, "classroom.schema.json") == []
    assert [(t["name"], t["score"]) for t in result["tests"]] == [("small-2x2 (AC)", 1), ("easy-3x3 (SUB)", 1)]
    assert sum(t["score"] for t in result["tests"]) == 2 and result["max_score"] == 3
    text = summary.read_text()
    assert text.startswith("## N-puzzle autograding: 2 / 3 points")
    assert "| easy-3x3 (SUB) | ❌ fail | 1 / 2 | output.txt:1: a legal path to the goal, but it takes 14 moves; the shortest takes 2 |" \
        in text
    results = json.loads((temp / "npuzzle-results" / "results.json").read_text())
    assert [s["id"] for s in results["submissions"]] == ["astar-alice"]
