"""Hostile submissions against the judging: output that poses as the grader's own failure, or
that would bloat the results.

Each runs through the whole pipeline beside a well-behaved submission, whose results must be
the same as when it is graded alone.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from grader.pipeline import grade
from grader.sandbox.probe import jvm_probe
from tests.support import REPO, require_tool

HOSTILE = Path(__file__).resolve().parent
TESTSET = REPO / "tests" / "grader" / "data" / "testset"
WELL_BEHAVED = REPO / "examples" / "submissions" / "AC-python-correct"


def graded(tmp_path: Path, hostile: Path, testset: Path = TESTSET, jobs: int = 2) -> tuple[dict, dict]:
    subs = tmp_path / "subs"
    shutil.copytree(hostile, subs / hostile.name)
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    results = grade(subs, testset, tmp_path / "out", jobs=jobs).to_json()
    by_id = {s["id"]: s for s in results["submissions"]}
    assert by_id["well-behaved"]["verdict"] == "AC"
    return by_id[hostile.name], results


def test_printed_jvm_start_failure_is_the_students_rte(tmp_path: Path) -> None:
    require_tool("javac")
    jvm_probe.forget()
    hostile, _ = graded(tmp_path, HOSTILE / "jvm_start_text")
    assert {case["verdict"] for case in hostile["cases"]} == {"RTE"}
    assert not any("memory_mb" in case["message"] for case in hostile["cases"])


def test_a_jvm_that_really_cannot_start_is_still_je(tmp_path: Path) -> None:
    # The assignment's own JVM options cannot start (initial heap above the maximum): the grader's
    # probe, without the student's code, fails too, so this is the grader's fault, named.
    require_tool("javac")
    jvm_probe.forget()
    testset = tmp_path / "testset"
    shutil.copytree(TESTSET, testset)
    (testset / "assignment.toml").write_text(
        'format_version = 1\nname = "jvm"\nio = "files"\nlanguage = "java"\n'
        '[java]\nrun = ["java", "-Xms200m", "-Xmx100m", "-cp", "{classpath}", "{main_class}"]\n'
        '[limits]\nwall_seconds = 5\nmemory_mb = 256\n')
    subs = tmp_path / "subs"
    shutil.copytree(HOSTILE / "jvm_start_text", subs / "student")
    results = grade(subs, testset, tmp_path / "out", jobs=1).to_json()
    [student] = results["submissions"]
    assert {case["verdict"] for case in student["cases"]} == {"JE"}, json.dumps(student["cases"][0])[:600]


def test_a_megabyte_of_wordings_is_a_few_notes_per_case(tmp_path: Path) -> None:
    hostile, _ = graded(tmp_path, HOSTILE / "note_flood")
    for case in hostile["cases"]:  # notes are left out of results.json when there are none (format 2)
        assert len(case.get("notes", [])) <= 4, case["notes"]
        assert len(json.dumps(case)) < 20_000
    notes = [note for case in hostile["cases"] for note in case.get("notes", [])]
    assert any("unsolvable wording" in note and "lines, the first shown" in note for note in notes)
    assert (tmp_path / "out" / "results.json").stat().st_size < 200_000
