"""Reporters on a fixed set of results: the table, --detail, grades.csv and feedback (golden files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.judging.verdicts import Verdict
from grader.model.results import CaseResult, GradingResults, SubmissionResult
from grader.reports.csv_grades import csv_text
from grader.reports.feedback import feedback_text, safe_name
from grader.reports.json_results import results_text
from grader.reports.table import render
from tests.support import check_golden

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden"

CASES = ({"id": "3x3-d20", "points": 2.0, "n": 3, "solvable": True, "optimal_moves": 20, "visibility": "visible"},
         {"id": "3x3-unsolvable", "points": 1.0, "n": 3, "solvable": False, "optimal_moves": None,
          "visibility": "hidden"})


def case(case_id: str, verdict: Verdict, points: float, max_points: float, message: str,
         visibility: str = "visible") -> CaseResult:
    return CaseResult(case=case_id, verdict=verdict, points=points, max_points=max_points, message=message,
                      seconds=0.25, visibility=visibility)


RESULTS = GradingResults(
    testset="demo", testset_path="testcases/demo", assignment={"io": "files"}, cases=CASES,
    submissions=(
        SubmissionResult("alice", "python", {"ok": True, "entry": "main.py"}, (
            case("3x3-d20", Verdict.SUB, 1.0, 2.0, "output.txt:1: a legal path to the goal, but it takes 24 moves; "
                                                   "the shortest takes 20"),
            case("3x3-unsolvable", Verdict.TLE, 0.0, 1.0, "stopped after the time limit of 10 s", "hidden")),
            max_score=3.0),
        SubmissionResult("bob/../x", "java", {"ok": False, "message": "javac failed (1 error):\nSolver.java:3: "
                                                                       "error: ';' expected"}, (
            case("3x3-d20", Verdict.CE, 0.0, 2.0, "javac failed"),
            case("3x3-unsolvable", Verdict.CE, 0.0, 1.0, "javac failed", "hidden")), max_score=3.0),
        SubmissionResult("carol", "java", {"ok": True, "entry": "puzzle.Solver"}, (
            case("3x3-d20", Verdict.AC, 2.0, 2.0, "a legal 20-move path to the goal (optimal)"),), max_score=3.0,
            complete=False),
    ),
    interrupted=True)


def test_table_and_detail(update_golden: bool) -> None:
    check_golden(GOLDEN / "table.txt", render(RESULTS, detail=True), update_golden)


def test_grades_csv(update_golden: bool) -> None:
    check_golden(GOLDEN / "grades.csv", csv_text(RESULTS), update_golden)


@pytest.mark.parametrize("index", [0, 1, 2], ids=["alice", "bob", "carol"])
def test_feedback(index: int, update_golden: bool) -> None:
    submission = RESULTS.submissions[index]
    check_golden(GOLDEN / f"feedback-{safe_name(submission.id)}.txt", feedback_text(submission, RESULTS),
                 update_golden)


def test_results_json_is_valid_and_scores_add_up() -> None:
    import json

    data = json.loads(results_text(RESULTS))
    assert [(s["id"], s["score"], s["verdict"], s["counts"]) for s in data["submissions"]] == [
        ("alice", 1.0, "TLE", {"TLE": 1, "SUB": 1}), ("bob/../x", 0.0, "CE", {"CE": 2}),
        ("carol", 2.0, "AC", {"AC": 1})]
    assert data["max_score"] == 3.0 and data["interrupted"] is True


def test_many_cases_show_one_letter_each(update_golden: bool) -> None:
    cases = tuple({"id": f"case-{i:02d}", "points": 1.0, "n": 3, "solvable": True, "optimal_moves": 4,
                   "visibility": "visible"} for i in range(12))
    verdicts = [Verdict.AC, Verdict.SUB, Verdict.WA, Verdict.PE, Verdict.TLE, Verdict.MLE, Verdict.RTE, Verdict.NO,
                Verdict.JE, Verdict.AC, Verdict.AC]  # the twelfth case did not run
    submission = SubmissionResult("dana", "python", {"ok": True}, tuple(
        case(f"case-{i:02d}", v, 0.0, 1.0, "") for i, v in enumerate(verdicts)), max_score=12.0, complete=False)
    results = GradingResults("demo", "demo", {}, cases, (submission,))
    check_golden(GOLDEN / "table-letters.txt", render(results, detail=True), update_golden)
