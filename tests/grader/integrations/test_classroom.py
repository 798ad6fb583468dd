"""GitHub Classroom: the result JSON, the template workflow's schema, and its run: steps run locally."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from grader.cli import entry
from grader.integrations.classroom import classroom_result, decode, encode, markdown_summary, reporter_totals
from grader.judging.scoring import case_points
from grader.judging.verdicts import Verdict
from grader.model.results import BuildRecord, SubmissionResult
from grader.model.schemacheck import schema_problems
from grader.reports.json_results import case_from_json
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded
from tests.support import REPO

WORKFLOW = REPO / "grader" / "integrations" / "templates" / "classroom" / "autograding.yml"


def _submission(graded: Graded, sid: str) -> SubmissionResult:
    return next(s for s in graded.results.submissions if s.id == sid)


def test_partial_points_survive_as_equal_all_or_nothing_tests(graded: Graded) -> None:
    result = classroom_result(_submission(graded, "suboptimal"), 0.5)
    assert [(t["name"], t["status"], t["score"], t["max_score"]) for t in result["tests"]] == [
        ("small-2x2 [AC]: legal path", "pass", 0.5, 0.5), ("small-2x2 [AC]: optimal length", "pass", 0.5, 0.5),
        ("easy-3x3 [SUB]: legal path (1 of 2)", "pass", 0.5, 0.5),
        ("easy-3x3 [SUB]: legal path (2 of 2)", "pass", 0.5, 0.5),
        ("easy-3x3 [SUB]: optimal length (1 of 2)", "fail", 0, 0.5),
        ("easy-3x3 [SUB]: optimal length (2 of 2)", "fail", 0, 0.5),
        ("mid-3x3 [SUB]: legal path (1 of 2)", "pass", 0.5, 0.5),
        ("mid-3x3 [SUB]: legal path (2 of 2)", "pass", 0.5, 0.5),
        ("mid-3x3 [SUB]: optimal length (1 of 2)", "fail", 0, 0.5),
        ("mid-3x3 [SUB]: optimal length (2 of 2)", "fail", 0, 0.5),
        ("unsolvable-3x3 [AC]: correct answer (1 of 2)", "pass", 0.5, 0.5),
        ("unsolvable-3x3 [AC]: correct answer (2 of 2)", "pass", 0.5, 0.5)]
    assert result["max_score"] == 6 and result["status"] == "fail"
    # The reporter logs passed/tests x max_score and posts the sum of the scores: both are the grade.
    assert reporter_totals(result) == (4.0, 4.0) == (_submission(graded, "suboptimal").score,) * 2
    assert schema_problems(result, "classroom.schema.json") == []


@pytest.mark.parametrize("sid", ["correct", "suboptimal", "illegal-move", "compile-error"])
def test_the_reporter_logs_what_it_posts_for_every_sample(graded: Graded, sid: str) -> None:
    submission = _submission(graded, sid)
    logged, posted = reporter_totals(classroom_result(submission, 0.5))
    assert logged == posted == submission.score


_CASE = st.fixed_dictionaries({
    "points": st.sampled_from([0.5, 1, 2, 3, 5, 0.25]),
    "verdict": st.sampled_from(["AC", "SUB", "WA", "TLE", "JE"]),
    "solvable": st.booleans()})


@given(cases=st.lists(_CASE, min_size=1, max_size=12), credit=st.sampled_from([0, 0.25, 0.5, 0.75, 1]))
def test_logged_and_posted_totals_agree_whatever_the_points(cases: list[dict], credit: float) -> None:
    rows = []
    for index, case in enumerate(cases):
        verdict = case["verdict"] if case["solvable"] or case["verdict"] != "SUB" else "AC"
        earned = case_points(Verdict(verdict), case["points"], credit)
        rows.append({"case": f"c{index}", "verdict": verdict, "points": earned, "max_points": case["points"],
                     "solvable": case["solvable"], "message": "", "seconds": 0.0})
    submission = SubmissionResult("s", "python", BuildRecord(), tuple(case_from_json(row) for row in rows), 0.0)
    result = classroom_result(submission, credit)
    logged, posted = reporter_totals(result)
    assert logged == pytest.approx(posted) and posted == pytest.approx(sum(r["points"] for r in rows))
    assert float(result["max_score"]) == pytest.approx(sum(r["max_points"] for r in rows))
    assert len({t["max_score"] for t in result["tests"]}) == 1
    assert all(t["score"] in (0, t["max_score"]) for t in result["tests"])


def test_visible_cases_only_and_encoding_round_trip(graded: Graded) -> None:
    result = classroom_result(_submission(graded, "correct"), 0.5, ["small-2x2", "easy-3x3"])
    assert result["status"] == "pass" and result["max_score"] == 3
    assert decode(encode(result)) == result


def test_the_real_reporter_logs_what_it_posts(graded: Graded, tmp_path: Path) -> None:
    """Runs classroom-resources/autograding-grading-reporter itself when a checkout of it (with its node
    modules installed) is named by NPUZZLE_CLASSROOM_REPORTER; it is not on the npm registry."""
    checkout = os.environ.get("NPUZZLE_CLASSROOM_REPORTER")
    if not checkout:
        pytest.skip("NPUZZLE_CLASSROOM_REPORTER does not name a checkout of the reporter action")
    node = shutil.which("node") or pytest.skip("node is not installed")
    for sid in ("suboptimal", "illegal-move"):
        result = classroom_result(_submission(graded, sid), 0.5)
        done = subprocess.run([node, str(Path(checkout) / "src" / "main.js")], capture_output=True, text=True,
                              timeout=60, env={"PATH": os.environ["PATH"], "INPUT_RUNNERS": "npuzzle",
                                               "NPUZZLE_RESULTS": encode(result)}, check=False)
        log = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)
        table = re.search(r"│ npuzzle\s*│ ([0-9.]+)\s*│ ([0-9.]+)", log)
        posted = re.search(r"Total points: ([0-9.]+)/([0-9.]+)", log)
        assert table and posted, log
        assert float(table.group(1)) == float(posted.group(1)) == _submission(graded, sid).score


def test_format_classroom_needs_exactly_one_submission(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("alice", "bob"):  # quick to grade: neither builds
        shutil.copytree(SUBMISSIONS / "compile-error", tmp_path / "class" / name)
    assert entry(["run", str(tmp_path / "class"), "--testcases", str(TESTSET), "--format", "classroom",
                  "--out", str(tmp_path / "out"), "--no-progress"]) == 5
    assert "--format classroom reports one submission (a student's repository), but 2 were graded" \
        in capsys.readouterr().err


def test_summary_lists_every_case(graded: Graded) -> None:
    text = markdown_summary(classroom_result(_submission(graded, "illegal-move"), 0.5))
    assert text.startswith("## N-puzzle autograding: 1 / 6 points\n")
    assert "| easy-3x3 [WA]: legal path (1 of 2) | ❌ fail | 0 / 0.5 | output.txt:7: step 1 (boards on lines 2 and " \
           "7): not a legal move" in text
    assert text.count("\n| ") == 14  # the header, its rule and twelve tests


# --------------------------------------------------------------------------- the template workflow
def _workflow(path: Path = WORKFLOW) -> dict:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def test_workflow_passes_the_github_workflow_schema() -> None:
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(WORKFLOW)], capture_output=True, text=True, timeout=120, check=False)
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
    workflow = _workflow(repo / ".github" / "workflows" / "classroom.yml")
    output, summary = temp / "github_output", temp / "step_summary"
    output.touch()
    summary.touch()
    # PYTHONPATH: the installed `grade` script runs this checkout's code, not whatever an editable install points at.
    env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "HOME": str(temp),
           "PYTHONPATH": str(REPO),
           "GITHUB_WORKSPACE": str(repo), "GITHUB_REPOSITORY": "puzzle-course/astar-alice",
           "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(temp),
           **{k: str(v) for k, v in workflow["env"].items()}}
    for step in workflow["jobs"]["run-autograding-tests"]["steps"]:
        if "run" not in step:
            continue
        # GitHub's default shell on Linux: bash --noprofile --norc -eo pipefail {0}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=repo,
                              env={**env, **step.get("env", {})}, capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, f"step {step['name']!r} failed:\n{done.stdout}\n{done.stderr}"
    return output, summary


def test_workflow_steps_grade_a_student_repo(tmp_path: Path) -> None:
    # A student's repository: their code at the root, the visible cases in testcases/.
    repo = tmp_path / "astar-alice"
    shutil.copytree(SUBMISSIONS / "suboptimal", repo)
    # The course's template repository, as `grade classroom template` writes it (grader from a git URL here).
    assert entry(["classroom", "template", str(TESTSET), "--out", str(repo),
                  "--install-from", "npuzzle-grader @ git+https://git.course.test/npuzzle-grader@v1"]) == 0
    temp = tmp_path / "runner-temp"
    temp.mkdir()

    output, summary = _run_steps(repo, temp)

    lines = output.read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith("result=")
    result = decode(lines[0].removeprefix("result="))
    assert schema_problems(result, "classroom.schema.json") == []
    assert [(t["name"], t["score"]) for t in result["tests"]] == [
        ("small-2x2 [AC]: legal path", 0.5), ("small-2x2 [AC]: optimal length", 0.5),
        ("easy-3x3 [SUB]: legal path (1 of 2)", 0.5), ("easy-3x3 [SUB]: legal path (2 of 2)", 0.5),
        ("easy-3x3 [SUB]: optimal length (1 of 2)", 0), ("easy-3x3 [SUB]: optimal length (2 of 2)", 0)]
    assert reporter_totals(result) == (2, 2) and result["max_score"] == 3
    text = summary.read_text()
    assert text.startswith("## N-puzzle autograding: 2 / 3 points")
    assert "| easy-3x3 [SUB]: optimal length (1 of 2) | ❌ fail | 0 / 0.5 | output.txt:1: a legal path to the goal, " \
           "but it takes 14 moves; the shortest takes 2 |" in text
    results = json.loads((temp / "npuzzle-results" / "results.json").read_text())
    assert [s["id"] for s in results["submissions"]] == ["astar-alice"]


# --------------------------------------------------------------------------- grade classroom template
@pytest.mark.slow
def test_template_commits_a_wheel_of_this_grader_and_only_visible_cases(tmp_path: Path) -> None:
    repo = tmp_path / "template"
    assert entry(["classroom", "template", str(TESTSET), "--out", str(repo)]) == 0
    workflow_path = repo / ".github" / "workflows" / "classroom.yml"
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(workflow_path)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    package = _workflow(workflow_path)["env"]["GRADER_PACKAGE"]
    assert package.startswith("./.github/npuzzle-grader/npuzzle_grader-") and package.endswith(".whl")
    names = zipfile.ZipFile(repo / package).namelist()
    assert "grader/cli.py" in names and "solver/board.py" in names
    text = workflow_path.read_text(encoding="utf-8")
    assert "@GRADER_PACKAGE@" not in text and "YOUR-COURSE" not in text
    manifest = json.loads((repo / "testcases" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["cases"] and all(c.get("visibility", "visible") == "visible" for c in manifest["cases"])


@pytest.mark.parametrize("args, message", [
    (["--install-from", "npuzzle-grader @ git+https://github.com/YOUR-COURSE/npuzzle-grader@main"],
     "not a pip requirement the workflow can install"),
    (["--install-from", "<the course's package>"], "not a pip requirement the workflow can install"),
    (["--install-from", "x", "--wheel", "x.whl"], "not both"),
    (["--wheel", "missing.whl"], "not a wheel file"),
])
def test_template_refuses_what_the_workflow_cannot_install(tmp_path: Path, capsys, args, message) -> None:
    assert entry(["classroom", "template", str(TESTSET), "--out", str(tmp_path / "t"), *args]) == 3
    assert message in capsys.readouterr().err
    assert not (tmp_path / "t").exists()  # nothing half-written


def test_template_keeps_an_existing_workflow_without_force(tmp_path: Path, capsys) -> None:
    args = ["classroom", "template", str(TESTSET), "--out", str(tmp_path), "--install-from", "npuzzle-grader==0.1"]
    assert entry(args) == 0
    assert entry(args) == 6 and "already exists" in capsys.readouterr().err
    assert entry([*args, "--force"]) == 0
