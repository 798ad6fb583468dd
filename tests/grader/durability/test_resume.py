"""Durability: every result is journaled, --resume finishes a run as if it had never stopped,
and a regrade with --only replaces only its own results."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from grader import pipeline
from grader.cli import entry
from grader.journal import CASES_FILE, FOLDER, Journal
from grader.judging.verdicts import Verdict
from grader.model.results import BuildRecord, CaseResult
from grader.model.schemacheck import schema_problems
from grader.pipeline import grade
from tests.support import REPO

DATA = REPO / "tests" / "grader" / "data"
EXAMPLES = REPO / "examples" / "submissions"
TIMING = ("seconds", "cpu_seconds")


def comparable(results_json: Path) -> dict[str, Any]:
    """results.json without what differs between two honest runs: timings and the run folder."""
    data = json.loads(results_json.read_text())
    for submission in data["submissions"]:
        submission["build"].pop("seconds", None)
        for case in submission["cases"]:
            for key in TIMING:
                case.pop(key, None)
    return data


@pytest.fixture
def subs(tmp_path: Path) -> Path:
    root = tmp_path / "subs"
    for name, example in [("a", "AC-python-correct"), ("b", "WA-python-wrong-k"), ("c", "NO-python-no-output")]:
        shutil.copytree(EXAMPLES / example, root / name)
    return root


def interrupt_after(count: int):
    seen: list[str] = []

    def hook(submission_id: str, result: CaseResult) -> None:
        seen.append(submission_id)
        if len(seen) == count:
            raise KeyboardInterrupt
    return hook


def test_interrupted_run_resumed_equals_an_uninterrupted_one(subs: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    grade(subs, DATA / "testset", whole, jobs=2, journal=Journal(whole, resume=False))

    # Every visible case runs before any hidden one (4 visible and 1 hidden case each, for a, b, c):
    # interrupted after the 12 visible and a's hidden case, a is finished, b and c half-done.
    first = grade(subs, DATA / "testset", resumed, jobs=1, journal=Journal(resumed, resume=False),
                  on_result=interrupt_after(13))
    assert first.interrupted
    files = sorted((resumed / FOLDER).glob(f"*/{CASES_FILE}"))
    lines = [line for path in files for line in path.read_bytes().splitlines()]
    assert len(lines) == 13
    assert all(not schema_problems(json.loads(line), "journal.schema.json") for line in lines)
    kept = {p: p.read_bytes() for p in files}

    built: list[str] = []
    real_build = pipeline.build
    monkeypatch.setattr(pipeline, "build", lambda root, *a: built.append(root.name) or real_build(root, *a))
    ran: list[tuple[str, str]] = []
    second = grade(subs, DATA / "testset", resumed, jobs=2, journal=Journal(resumed, resume=True),
                   on_result=lambda sid, result: ran.append((sid, result.case)))
    assert not second.interrupted
    assert "a" not in built  # every case of a was journaled: not even rebuilt
    assert len(ran) == 15 - 13 and not any(sid == "a" for sid, _ in ran)
    # finished entries untouched: a resumed run only appends to them
    assert all(path.read_bytes().startswith(data) for path, data in kept.items())
    assert comparable(resumed / "results.json") == comparable(whole / "results.json")
    assert (resumed / "grades.csv").read_text() == (whole / "grades.csv").read_text()


def test_resume_against_another_testset_is_refused(subs: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    args = [str(subs), "--testcases", str(DATA / "testset"), "--out", str(out), "-j", "2", "--only", "c",
            "--no-progress"]
    assert entry(["run", *args]) == 0
    capsys.readouterr()
    # A different wall limit changes what a result means: mixing the two runs would be wrong.
    assert entry(["run", *args, "--resume", "--time-limit", "3"]) == 3
    err = capsys.readouterr().err
    assert f"{out / FOLDER / 'run.json'}::$.key: this journal was written for a different test set" in err
    assert "Traceback" not in err
    assert entry(["run", *args, "--resume"]) == 0  # the same settings resume (here: nothing left to run)


def test_only_regrade_replaces_only_that_submission(subs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    grade(subs, DATA / "testset", out, jobs=2)
    before = json.loads((out / "results.json").read_text())
    rows_before = (out / "grades.csv").read_text().splitlines()
    feedback_before = {p.name: p.read_text() for p in (out / "feedback").iterdir()}

    shutil.rmtree(subs / "b")
    shutil.copytree(EXAMPLES / "AC-python-correct", subs / "b")  # the student fixed the bug
    grade(subs, DATA / "testset", out, jobs=2, only=["b"])

    after = json.loads((out / "results.json").read_text())
    assert [s["id"] for s in after["submissions"]] == ["a", "b", "c"]
    old, new = ({s["id"]: s for s in doc["submissions"]} for doc in (before, after))
    assert new["a"] == old["a"] and new["c"] == old["c"]  # byte for byte, timings included
    assert old["b"]["verdict"] == "WA" and new["b"]["verdict"] == "AC"
    rows_after = (out / "grades.csv").read_text().splitlines()
    assert [rows_after[i] for i in (0, 1, 3)] == [rows_before[i] for i in (0, 1, 3)]
    assert rows_after[2].startswith("b,6,6,AC")
    feedback_after = {p.name: p.read_text() for p in (out / "feedback").iterdir()}
    assert feedback_after.keys() == feedback_before.keys()
    assert feedback_after["a.txt"] == feedback_before["a.txt"] and feedback_after["c.txt"] == feedback_before["c.txt"]
    assert feedback_after["b.txt"] != feedback_before["b.txt"]


def test_a_failed_report_write_leaves_the_old_report_whole(subs: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.errors import OutputDirError
    from solver import fileio

    out = tmp_path / "out"
    grade(subs, DATA / "testset", out, jobs=2, only=["c"])
    old_csv = (out / "grades.csv").read_bytes()
    real_fsync = fileio.os.fsync

    def disk_full_on_csv(fd: int) -> None:
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name.startswith(".grades.csv."):
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(fileio.os, "fsync", disk_full_on_csv)
    with pytest.raises(OutputDirError, match=re.escape("grades.csv: cannot write: No space left on device")):
        grade(subs, DATA / "testset", out, jobs=2, only=["a"])
    assert (out / "grades.csv").read_bytes() == old_csv  # the old report, whole
    assert not [p for p in out.rglob("*.tmp")]  # no half-written temp file left behind


def test_a_finished_api_part_is_journaled_and_not_run_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.grader.apitests.conftest import DATA as API_DATA
    from tests.grader.apitests.conftest import TESTSET as API_TESTSET

    subs = tmp_path / "subs"
    shutil.copytree(API_DATA / "python" / "moves-zero-when-unsolvable", subs / "alice")
    out = tmp_path / "out"
    cases = ["puzzle04", "puzzle2x2-unsolvable1"]
    first = grade(subs, API_TESTSET, out, cases=cases, journal=Journal(out, resume=False))
    entry_path = next((out / FOLDER).glob("*/api/results.json"))
    assert not schema_problems(json.loads(entry_path.read_text()), "journal-api.schema.json")

    ran: list[str] = []
    monkeypatch.setattr(pipeline._Batch, "_run_api", lambda self, submission, built: ran.append(submission.id))
    journal = Journal(out, resume=True)
    second = grade(subs, API_TESTSET, out, cases=cases, journal=journal)
    assert ran == [] and journal.reused_api == 1
    assert [t.to_json() for t in second.submissions[0].api] == [t.to_json() for t in first.submissions[0].api]
    assert second.submissions[0].score == first.submissions[0].score

    # A journal whose API entry is damaged runs the API part again, and only that.
    entry_path.write_text("{not json")
    ran.clear()
    monkeypatch.setattr(pipeline._Batch, "_run_api", lambda self, submission, built: ran.append(submission.id) or ())
    grade(subs, API_TESTSET, out, cases=cases, journal=Journal(out, resume=True))
    assert ran == ["alice"]


def test_a_torn_journal_line_costs_only_its_case(tmp_path: Path) -> None:
    # A machine crash between a write and its submission's fsync can leave a partial last line; kill -9 cannot.
    journal = Journal(tmp_path, resume=False)
    journal.start("ab" * 32)
    for case in ("c1", "c2"):
        result = CaseResult(case=case, verdict=Verdict.AC, points=1.0, max_points=1.0, message="", seconds=0.1)
        journal.record("s", "s", "python", BuildRecord(), result)
    journal.commit("s")
    [path] = (tmp_path / FOLDER).glob(f"*/{CASES_FILE}")
    whole = path.read_bytes()
    path.write_bytes(whole + whole.splitlines()[0][:40])  # a third line cut short
    held = Journal(tmp_path, resume=True).start("ab" * 32)
    assert sorted(held["s"].cases) == ["c1", "c2"]
