"""[limits] stop_after_tle: after N TLE cases a submission's remaining cases are TLE without running, and it says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.model.schemacheck import schema_problems
from grader.pipeline import grade
from grader.testsets.assignment import load_assignment
from tests.grader.sampleclass import TESTSET

LOOPER = "while True:\n    pass\n"


@pytest.mark.parametrize("budget, ran", [(1, 1), (3, 3)])
def test_a_submission_stops_after_its_tle_budget(tmp_path: Path, budget: int, ran: int) -> None:
    (tmp_path / "subs" / "looper").mkdir(parents=True)
    (tmp_path / "subs" / "looper" / "main.py").write_text(LOOPER)
    config = tmp_path / "assignment.toml"
    config.write_text(f'io = "files"\n[limits]\nstop_after_tle = {budget}\n')
    out = tmp_path / "out"
    [looper] = grade(tmp_path / "subs", TESTSET, out, jobs=1, time_limit=0.2, assignment_path=config).submissions
    assert [case.verdict.value for case in looper.cases] == ["TLE"] * 4
    assert [case.runs for case in looper.cases] == [1] * ran + [0] * (4 - ran)
    for case in looper.cases[ran:]:
        assert case.message.startswith(f"not run: {ran} earlier case") and f"after {budget} ([limits]" in case.message
    stored = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert schema_problems(stored, "results.schema.json") == []
    assert stored["assignment"]["limits"]["stop_after_tle"] == budget
    feedback = (out / "feedback" / "looper.txt").read_text(encoding="utf-8")
    assert f"Time budget: {4 - ran} case" in feedback and "not run (TLE)" in feedback
    # hidden cases too say why they were not run: it gives nothing of their input away
    assert feedback.count("not run: ") == 4 - ran


def test_the_budget_is_off_by_default(tmp_path: Path) -> None:
    config = tmp_path / "assignment.toml"
    config.write_text('io = "files"\n')
    limits = load_assignment(config).limits
    assert limits.stop_after_tle is None and "stop_after_tle" not in load_assignment(config).to_json()["limits"]
