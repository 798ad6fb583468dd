"""`grade examples/submissions`: every sample gets the verdict its name starts with.

The samples are graded once (module fixture) through the same CLI a TA uses, on the default test set (the one
`grade` picks from the repository root: testcases/cmpe160), on the four of its cases the tests look at: two
solvable 3x3 boards (one visible, one hidden) and two unsolvable boards (likewise), on which every sample shows
its fault. ``--time-limit 5`` keeps the looping sample's TLEs cheaper than the set's 10 s; every other run takes
about a second at most. That a run with no case filter grades every case of the set is checked on the one
sample that solves every board quickly (AC-python-correct), graded alone.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from grader.cli import entry
from grader.judging.verdicts import Verdict
from grader.model.schemacheck import schema_problems
from grader.testsets.bundled import default_testset
from grader.testsets.model import load_testset
from tests.support import REPO, require_tool

EXAMPLES = REPO / "examples" / "submissions"
TESTSET = default_testset(REPO)
SAMPLES = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())


CASES = ["3x3-rand-01", "3x3-rand-02", "2x2-unsolvable-01", "3x3-unsolvable-01"]
"""Visible and hidden, solvable and unsolvable: each sample's fault shows on one of them (the overall verdicts
graded on every case are the same; examples/submissions/README.md says where each sample fails)."""


def _grade(submissions: Path, out: Path, *options: str) -> str:
    """``grade SUBMISSIONS`` as a TA types it; the table it prints."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = entry([str(submissions), "--testcases", str(TESTSET), "--out", str(out), "-j", "2",
                      "--time-limit", "5", "--detail", "--no-progress", *options])
    (out / "stdout.txt").write_text(buffer.getvalue())
    assert code == 0
    return buffer.getvalue()


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    require_tool("javac")
    out = tmp_path_factory.mktemp("graded")
    return out, _grade(EXAMPLES, out, *(option for case in CASES for option in ("--cases", case)))


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES)
def test_sample_gets_the_verdict_in_its_name(graded: tuple[Path, str], sample: str) -> None:
    out, _ = graded
    results = json.loads((out / "results.json").read_text())
    submission = next(s for s in results["submissions"] if s["id"] == sample)
    expected = sample.split("-")[0]
    assert submission["verdict"] == expected, [(c["case"], c["verdict"], c["message"]) for c in submission["cases"]]
    failing = [c for c in submission["cases"] if c["verdict"] == expected]
    assert all(c["message"] for c in failing)
    if expected == "AC":
        assert submission["score"] == submission["max_score"]


@pytest.mark.slow
def test_every_case_of_the_default_set_is_graded(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "AC-python-correct", tmp_path / "subs" / "AC-python-correct")
    _grade(tmp_path / "subs", tmp_path / "out")
    [submission] = json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]
    every = [case.id for case in load_testset(TESTSET).cases]
    assert TESTSET == REPO / "testcases" / "cmpe160" and len(every) == 41
    assert [c["case"] for c in submission["cases"]] == every
    assert submission["score"] == submission["max_score"]


@pytest.mark.slow
def test_every_verdict_has_a_sample() -> None:
    # JE is the grader's own fault; MLE is reproduced in data/real-submissions (it needs a small limit).
    prefixes = {name.split("-")[0] for name in SAMPLES}
    assert prefixes == {v.value for v in Verdict} - {"JE", "MLE"}
    assert {name.split("-")[1] for name in SAMPLES} == {"python", "java"}


@pytest.mark.slow
def test_reports_are_complete_and_valid(graded: tuple[Path, str]) -> None:
    out, stdout = graded
    results = json.loads((out / "results.json").read_text())
    assert schema_problems(results, "results.schema.json") == []
    assert [s["id"] for s in results["submissions"]] == SAMPLES  # deterministic order
    with open(out / "grades.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["id"] for row in rows] == SAMPLES
    assert sorted(p.stem for p in (out / "feedback").glob("*.txt")) == SAMPLES
    for sample in SAMPLES:  # the table has one row per submission, with its score
        row = next(line for line in stdout.splitlines() if line.startswith(sample + " "))
        submission = next(s for s in results["submissions"] if s["id"] == sample)
        assert f"{submission['score']:g}/{submission['max_score']:g}" in row


@pytest.mark.slow
def test_feedback_names_the_line_and_shows_boards(graded: tuple[Path, str]) -> None:
    out, _ = graded
    text = (out / "feedback" / "WA-java-illegal-move.txt").read_text()
    assert "not a legal move" in text and "output.txt:" in text and "[" in text
    text = (out / "feedback" / "RTE-java-hardcoded-input-name.txt").read_text()
    assert "input12.txt" in text and "do not hard-code" in text


@pytest.mark.slow
def test_feedback_hides_hidden_cases_details(graded: tuple[Path, str]) -> None:
    out, _ = graded
    results = json.loads((out / "results.json").read_text())
    for submission in results["submissions"]:
        lines = (out / "feedback" / f"{submission['id']}.txt").read_text().splitlines()
        # a case's visibility is left out when visible (format 2)
        hidden = [case for case in submission["cases"] if case.get("visibility", "visible") != "visible"]
        for number, case in enumerate(hidden, 1):
            assert not any(case["case"] in line for line in lines), "a hidden case's id may tell its answer"
            if case["verdict"] != "AC" and submission["build"]["ok"]:
                head = lines.index(next(line for line in lines if line.startswith(f"[{case['verdict']:>3}] hidden case "
                                                                                   f"{number} ")))
                assert lines[head + 1].strip() == "(hidden case: details are not shown)"
