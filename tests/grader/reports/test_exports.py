"""What every grading run leaves for the gradebook and dashboards: grades.csv, report.html, junit/."""

from __future__ import annotations

import csv

from tests.grader.sampleclass import Graded


def test_grades_csv_imports_into_a_gradebook(graded: Graded) -> None:
    # LMS imports (Canvas, Moodle, Blackboard) map a student id column and a points column, with the
    # points possible beside it: the first three columns, one row per student, plain numbers.
    with open(graded.out_dir / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:3] == ["id", "score", "max_score"]
    assert [(row[0], float(row[1]), float(row[2])) for row in rows[1:]] == [
        ("compile-error", 0, 6), ("correct", 6, 6), ("illegal-move", 1, 6), ("suboptimal", 4, 6)]


def test_every_run_writes_the_report_and_junit_files(graded: Graded) -> None:
    assert (graded.out_dir / "report.html").is_file()
    assert sorted(p.name for p in (graded.out_dir / "junit").iterdir()) == [
        "compile-error.xml", "correct.xml", "illegal-move.xml", "suboptimal.xml"]


def test_results_carry_each_cases_input_board_for_replays(graded: Graded) -> None:
    boards = {case["id"]: case["board"] for case in graded.document["cases"]}
    assert boards["easy-3x3"] == [1, 2, 3, 4, 0, 6, 7, 5, 8]
    assert boards["small-2x2"] == [0, 3, 2, 1]
