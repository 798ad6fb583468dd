"""One --out folder, one grade at a time; regrades of some students or some cases merge into its results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.cli import entry
from grader.outlock import LOCK_NAME
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded, copy_submissions
from tests.support import REPO

HOLD = """import sys, time
from pathlib import Path
from grader.outlock import holding
with holding(Path(sys.argv[1]), print):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def verdicts(out: Path) -> dict[str, list[str]]:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["id"]: [c["verdict"] for c in s["cases"]] for s in document["submissions"]}


def test_a_second_grade_waits_for_the_first_and_says_so(tmp_path: Path, capfd: pytest.CaptureFixture) -> None:
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out), "1.5"], stdout=subprocess.PIPE, cwd=REPO,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    assert holder.stdout.readline() == b"held\n"
    started = time.monotonic()
    code = entry(["run", str(SUBMISSIONS), "--testcases", str(TESTSET), "--only", "correct", "--cases", "small-2x2",
                  "--out", str(out), "--no-progress", "-j", "1"])
    waited = time.monotonic() - started
    holder.wait()
    assert code == 0 and waited >= 1.0
    err = capfd.readouterr().err
    assert f"grade: {out} is in use by another grade (pid {holder.pid}); waiting for it to finish" in err
    assert verdicts(out) == {"correct": ["AC"]}
    assert (out / LOCK_NAME).read_text() == f"pid {os.getpid()}\n"  # the holder's pid, for the next one's message


def test_two_grades_into_one_folder_at_once_lose_nobody(tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "grader.cli", "run", str(SUBMISSIONS), "--testcases", str(TESTSET), "--out", str(out),
            "--no-progress", "-j", "1", "--only"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    runs = [subprocess.Popen([*argv, student], cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            for student in ("correct", "suboptimal")]
    errors = [run.communicate()[1].decode() for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    assert sorted(verdicts(out)) == ["correct", "suboptimal"]
    assert any("waiting for it to finish" in error for error in errors)


def test_a_regrade_of_some_cases_merges_into_the_results(graded: Graded, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(graded.out_dir, out)
    before = verdicts(out)
    assert before["illegal-move"][1] != "AC"
    # The student's fix, regraded on one case only: that case changes, the rest of the class stays as it was.
    fixed = copy_submissions(tmp_path / "class", ["correct"])
    (fixed / "correct").rename(fixed / "illegal-move")
    assert entry(["run", str(fixed), "--testcases", str(TESTSET), "--only", "illegal-move", "--cases", "easy-3x3",
                  "--out", str(out), "--no-progress"]) == 0
    after = verdicts(out)
    assert after["illegal-move"] == [before["illegal-move"][0], "AC", *before["illegal-move"][2:]]
    assert {sid: v for sid, v in after.items() if sid != "illegal-move"} == \
        {sid: v for sid, v in before.items() if sid != "illegal-move"}
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [case["id"] for case in document["cases"]] == ["small-2x2", "easy-3x3", "mid-3x3", "unsolvable-3x3"]
    regraded = next(s for s in document["submissions"] if s["id"] == "illegal-move")
    assert regraded["max_score"] == graded.document["max_score"] and regraded["complete"]
