"""The pipeline's promises: Ctrl-C keeps finished work, --only, default test set, and untrusted files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.errors import ConfigError
from grader.intake.java import java_build
from grader.model.results import CaseResult
from grader.pipeline import grade
from grader.testsets.bundled import bundled_set, default_testset
from tests.support import REPO

DATA = REPO / "tests" / "grader" / "data"
EXAMPLES = REPO / "examples" / "submissions"


def python_submission(root: Path, name: str, code: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "main.py").write_text(code)


def test_ctrl_c_saves_the_finished_cases(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    shutil.copytree(EXAMPLES / "AC-python-correct", subs / "a")
    shutil.copytree(EXAMPLES / "AC-python-correct", subs / "b")
    seen: list[str] = []

    def interrupt_after_three(submission_id: str, result: CaseResult) -> None:
        seen.append(submission_id)
        if len(seen) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "out"
    results = grade(subs, DATA / "testset", out, jobs=1, on_result=interrupt_after_three)
    assert results.interrupted
    saved = json.loads((out / "results.json").read_text())
    assert saved["interrupted"] is True
    assert sum(len(s["cases"]) for s in saved["submissions"]) == 3
    assert [s["complete"] for s in saved["submissions"]] == [False, False]


def test_only_grades_the_matching_ids(tmp_path: Path) -> None:
    results = grade(EXAMPLES, DATA / "testset", None, jobs=2, only=["NO-*", "CE-java-*"])
    assert [s.id for s in results.submissions] == ["CE-java-compile-error", "NO-python-no-output"]


def test_output_file_symlink_is_not_followed(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    python_submission(subs, "sneaky", "import os\nos.symlink('/etc/hostname', 'output.txt')\n")
    [submission] = grade(subs, DATA / "testset", None, jobs=1, only=["sneaky"]).submissions
    assert {c.verdict.value for c in submission.cases} == {"NO"}


def test_stdout_is_judged_in_stdin_mode(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    python_submission(subs, "echo", "import sys\nsys.stdin.read()\nprint('No solution possible')\n")
    config = tmp_path / "assignment.toml"
    config.write_text('io = "stdin"\n')
    [submission] = grade(subs, DATA / "testset", None, jobs=2, assignment_path=config).submissions
    by_case = {c.case: c.verdict.value for c in submission.cases}
    assert by_case["3x3-unsolvable"] == "AC" and by_case["3x3-d3"] == "WA"
    python_submission(subs, "filewriter", "open('output.txt', 'w').write('No solution possible')\nprint('done')\n")
    [submission] = grade(subs, DATA / "testset", None, jobs=2, assignment_path=config, only=["filewriter"],
                         cases=["3x3-unsolvable"]).submissions
    assert submission.cases[0].verdict.value == "PE"
    assert "found 'done'" in submission.cases[0].message
    assert "it also wrote output.txt, which is not graded" in submission.cases[0].message


def test_missing_java_toolchain_is_a_judge_error_per_submission(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(java_build, "tool", lambda name: None)
    results = grade(EXAMPLES, DATA / "testset", None, jobs=1, only=["CE-java-*"])
    [submission] = results.submissions
    assert submission.verdict.value == "JE" and "install a JDK" in submission.cases[0].message


def test_default_testset_prefers_the_local_folder(tmp_path: Path) -> None:
    assert default_testset(tmp_path) == bundled_set()
    (tmp_path / "testcases" / "cmpe160").mkdir(parents=True)
    assert default_testset(tmp_path) == tmp_path / "testcases" / "cmpe160"
    (tmp_path / "testcases" / "manifest.json").write_text("{}")
    assert default_testset(tmp_path) == tmp_path / "testcases"


def test_a_set_certified_for_another_goal_is_refused(tmp_path: Path) -> None:
    # Its counts (and for even N its solvability) belong to the blank-last goal: a correct blank-first
    # answer would be judged against them (a 0-move answer got JE, a 2x2 set stopped the run).
    testset = tmp_path / "set"
    shutil.copytree(DATA / "testset", testset)
    (testset / "assignment.toml").write_text('[output]\ngoal = "blank-first"\n')
    (tmp_path / "subs").mkdir()
    with pytest.raises(ConfigError, match=r"assignment.toml::\$\.output\.goal: the assignment's goal is blank-first, "
                                          r"but the test set 'grader-tests' .* was certified for the blank-last goal"):
        grade(tmp_path / "subs", testset, None)


def test_manifest_solvability_is_checked_against_the_goal(tmp_path: Path) -> None:
    # A manifest edited by hand to claim the blank-first goal: for even N that goal is in the other
    # parity class, so a 2x2 case cannot keep its label.
    testset = tmp_path / "set"
    shutil.copytree(DATA / "testset", testset)
    (testset / "assignment.toml").write_text('[output]\ngoal = "blank-first"\n')
    manifest = testset / "manifest.json"
    text = manifest.read_text().replace('"format_version": 1,', '"format_version": 1, "goal": "blank-first",')
    manifest.write_text(text)
    (tmp_path / "subs").mkdir()
    with pytest.raises(ConfigError, match=r"manifest.json::\$\.cases\[3\]\.solvable: case '2x2-d5' says solvable"):
        grade(tmp_path / "subs", testset, None)
    # With --cases the path still names the case's place in the manifest, not among the cases kept.
    with pytest.raises(ConfigError, match=r"manifest.json::\$\.cases\[3\]\.solvable: case '2x2-d5' says solvable"):
        grade(tmp_path / "subs", testset, None, cases=["2x2-*"])


def test_java_project_layout(tmp_path: Path) -> None:
    # An IDE project: sources in src/ (in a package), a stale copy in backup/, a JUnit test.
    project = tmp_path / "subs" / "ide-project"
    shutil.copytree(EXAMPLES / "AC-java-princeton-padded" / "src", project / "src")
    shutil.copytree(EXAMPLES / "AC-java-princeton-padded" / "src", project / "backup")
    (project / "src" / "puzzle" / "BoardTest.java").write_text(
        "package puzzle;\nimport org.junit.Test;\npublic class BoardTest { @Test public void t() {} }\n")
    [submission] = grade(tmp_path / "subs", DATA / "testset", None, jobs=2).submissions
    assert submission.verdict.value == "AC", submission.build
    assert submission.build.entry == "puzzle.Solver"
    assert "left out backup/puzzle/Board.java" in submission.build.message
    assert "src/puzzle/BoardTest.java" in submission.build.message


def test_cases_are_selected_by_id_glob_or_tag(tmp_path: Path) -> None:
    from grader.testsets.model import load_testset, select_cases

    testset = load_testset(DATA / "testset")
    assert [c.id for c in select_cases(testset, ["3x3-d*", "tag:unsolvable"]).cases] == [
        "3x3-d3", "3x3-d20-padded", "3x3-unsolvable"]
    with pytest.raises(ConfigError, match=r"manifest.json::\$\.cases: no case matches 'tag:hard'"):
        select_cases(testset, ["tag:hard"])
    results = grade(EXAMPLES, DATA / "testset", None, jobs=2, only=["AC-python-*"], cases=["2x2-*"])
    [submission] = results.submissions
    assert [c.case for c in submission.cases] == ["2x2-d5"] and results.max_score == submission.max_score == 1


def test_any_command_from_the_config(tmp_path: Path) -> None:
    subs = tmp_path / "subs" / "shell-student"
    subs.mkdir(parents=True)
    (subs / "solve.sh").write_text('echo "Unsolvable puzzle" > output.txt\n')
    config = tmp_path / "assignment.toml"
    config.write_text('language = "command"\n[command]\nbuild = ["/bin/sh", "-c", "cp solve.sh built.sh"]\n'
                      'run = ["/bin/sh", "built.sh", "{input}"]\n')
    [submission] = grade(tmp_path / "subs", DATA / "testset", None, jobs=2, assignment_path=config).submissions
    assert submission.language == "command" and submission.build.ok
    by_case = {c.case: c.verdict.value for c in submission.cases}
    assert by_case["3x3-unsolvable"] == "AC" and by_case["3x3-d3"] == "WA"
    config.write_text('language = "command"\n[command]\nbuild = ["/bin/sh", "-c", "exit 3"]\nrun = ["true"]\n')
    [submission] = grade(tmp_path / "subs", DATA / "testset", None, jobs=1, assignment_path=config).submissions
    assert submission.verdict.value == "CE" and "exited with status 3" in submission.build.message
