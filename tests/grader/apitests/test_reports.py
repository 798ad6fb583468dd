"""A graded submission's API tests reach every report: results.json, the table, feedback, HTML,
Gradescope and Classroom, with their points counted in the score."""

from __future__ import annotations

import json
import shutil

import pytest

from grader.apitests.catalogue import plan
from grader.integrations.classroom import classroom_result, markdown_summary
from grader.integrations.gradescope import gradescope_results
from grader.pipeline import grade
from grader.reports.html_report import render
from grader.reports.json_results import read_results
from grader.reports.table import summary_table
from grader.testsets.apiconfig import ApiConfig
from tests.grader.apitests.conftest import DATA, TESTSET

PYTHON_TESTS = len(plan(ApiConfig(), "python"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("api-reports")
    submissions = root / "submissions"
    submissions.mkdir()
    shutil.copytree(DATA / "python" / "moves-zero-when-unsolvable", submissions / "alice")
    out = root / "out"
    return grade(submissions, TESTSET, out, cases=["puzzle04", "puzzle2x2-unsolvable1"]), out


def test_results_json_holds_each_test_and_counts_its_points(graded):
    _results, out = graded
    data = json.loads((out / "results.json").read_text())
    submission = data["submissions"][0]
    failed = [t for t in submission["api"] if not t["passed"]]
    assert [t["name"] for t in failed] == ["solver.unsolvable"]
    assert "moves() returned 0, expected -1" in failed[0]["message"]
    assert data["api_points"] == 40 and data["max_score"] == 42
    case_points = sum(c["points"] for c in submission["cases"])
    api_points = sum(t["points"] for t in submission["api"])
    assert submission["score"] == pytest.approx(case_points + api_points)
    assert api_points == pytest.approx(40 - failed[0]["max_points"])


def test_table_feedback_and_html_show_them(graded):
    results, out = graded
    table = summary_table(results)
    assert table.splitlines()[0].split()[-1] == "api" and f"{PYTHON_TESTS - 1}/{PYTHON_TESTS}" in table
    feedback = (out / "feedback" / "alice.txt").read_text()
    assert f"API tests: {PYTHON_TESTS - 1} of {PYTHON_TESTS} passed" in feedback
    assert "[FAIL] solver.unsolvable" in feedback and "expected -1" in feedback
    page = render(read_results(out / "results.json"))
    # The page's script builds the API panel from its data (tests/grader/reports test it in Chromium).
    assert '"api_names":[' in page and "solver.unsolvable" in page


def test_csv_and_junit_list_them(graded):
    _results, out = graded
    header, row = (out / "grades.csv").read_text().splitlines()[:2]
    assert header.endswith("timing.counts") and "solver.unsolvable" in header
    assert row.split(",")[header.split(",").index("solver.unsolvable")] == "fail 0"
    xml = next((out / "junit").glob("*.xml")).read_text()
    assert 'classname="npuzzle.alice.api.correctness" name="solver.unsolvable"' in xml
    assert xml.count("<testcase") == 1 + 2 + PYTHON_TESTS


def test_gradescope_and_classroom_get_one_test_each(graded):
    results, _ = graded
    data = results.to_json()
    scope = gradescope_results(results, 1.0)
    names = [t["name"] for t in scope["tests"]]
    assert "API correctness: solver.unsolvable" in names and len(names) == 1 + 2 + PYTHON_TESTS
    assert scope["score"] == pytest.approx(results.submissions[0].score, abs=1e-5)
    room = classroom_result(results.submissions[0], float(data["assignment"].get("suboptimal_credit", 0.5)))
    api_names = [t["name"] for t in room["api_tests"]]
    assert len(api_names) == PYTHON_TESTS and "API correctness: solver.unsolvable" in api_names
    case_points = sum(t["score"] for t in room["tests"])
    assert case_points + sum(t["score"] for t in room["api_tests"]) == pytest.approx(results.submissions[0].score,
                                                                                       abs=1e-5)
    passed = sum(t["status"] == "pass" for t in room["tests"])  # the reporter logs passed share x max: it must agree
    assert passed / len(room["tests"]) * room["max_score"] == pytest.approx(case_points)
    summary = markdown_summary(room)
    assert "API tests:" in summary and "solver.unsolvable" in summary
