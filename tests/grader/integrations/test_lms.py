"""grade export --lms: each gradebook CSV has its LMS's documented import columns; unmatched ids are listed.

The column rules checked here are the LMSs' own: Canvas's gradebook import (Student, ID, SIS User ID,
SIS Login ID, Section, then "Assignment (id)" columns and an optional "Points Possible" row), Moodle's
CSV grade import (a user-identifying column, "ID number" or "Email address", mapped on import, and a
grade column), and Blackboard Learn's Grade Center upload (Username as the key, "Name [Total Pts: N
Score] |column id" to update a column, every value in quotes in a comma-delimited file).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from grader.cli import entry
from tests.grader.sampleclass import Graded

ROSTERS = Path(__file__).resolve().parents[1] / "data" / "lms"
NUMBER = re.compile(r"^\d+(\.\d+)?$")
QUOTED_LINE = re.compile(r'^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$')
DOCUMENTED = {
    "canvas": ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"],
    "moodle": ["First name", "Last name", "ID number", "Email address"],
    "blackboard": ["Last Name", "First Name", "Username", "Student ID"],
}
KEYS = {"canvas": ("ID", "SIS User ID", "SIS Login ID"), "moodle": ("ID number", "Email address"),
        "blackboard": ("Username",)}
GRADE_HEADER = {
    "canvas": re.compile(r"^.+ \(\d+\)$"),
    "moodle": re.compile(r"^[^,]+$"),
    "blackboard": re.compile(r"^.+ \[Total Pts: \d+(\.\d+)? Score\] \|\d+$"),
}


def _export(capsys: pytest.CaptureFixture[str], graded: Graded, tmp_path: Path, lms: str, roster: str,
            *extra: str) -> tuple[int, str, str]:
    out = tmp_path / f"{lms}.csv"
    code = entry(["export", str(graded.out_dir), "--lms", lms, "--roster", str(ROSTERS / roster),
                  "--out", str(out), "--name", "Project III", *extra])
    streams = capsys.readouterr()
    return code, out.read_text(encoding="utf-8") if out.exists() else "", streams.err


@pytest.mark.parametrize("lms", sorted(DOCUMENTED))
def test_columns_follow_the_lms_import_format(lms: str, graded: Graded, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _export(capsys, graded, tmp_path, lms, f"roster-{lms}.csv", "--column-id", "555")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = rows[0], rows[1:]
    assert header[:-1] == DOCUMENTED[lms] and GRADE_HEADER[lms].match(header[-1]) and "Project III" in header[-1]
    if lms == "canvas":
        assert body[0][0].strip() == "Points Possible" and body[0][-1] == "6"
        body = body[1:]
    if lms == "blackboard":
        assert all(QUOTED_LINE.match(line) for line in text.splitlines())
    scores = {s["id"]: s["score"] for s in graded.document["submissions"]}
    for row in body:
        record = dict(zip(header, row))
        assert any(record[key] for key in KEYS[lms])
        assert row[-1] == "" or (NUMBER.match(row[-1]) and float(row[-1]) <= 6)
    assert sorted(float(row[-1]) for row in body if row[-1]) == sorted(
        scores[sid] for sid in ("correct", "suboptimal", "illegal-move"))
    # compile-error has no roster row in any of them: listed, not lost silently.
    assert "submission ids match no roster row" in err and "compile-error" in err


def test_roster_students_without_a_submission_are_listed(graded: Graded, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _export(capsys, graded, tmp_path, "moodle", "roster-moodle.csv")
    assert code == 0 and "1 roster students have no submission (empty grade): nobody-here" in err
    assert text.splitlines()[0].endswith(",Project III")  # a plain name: mapped to the grade item on import


def test_an_lms_export_can_be_the_roster(graded: Graded, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _export(capsys, graded, tmp_path, "canvas", "roster-canvas-export.csv",
                              "--id-column", "SIS Login ID")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [row[3] for row in rows[2:]] == ["correct", "suboptimal"] and rows[2][-1] == "6"


@pytest.mark.parametrize("roster, lms, fragment", [
    ("roster-no-key.csv", "blackboard", "line 1: Blackboard matches students on Username: expected one of those"),
    ("roster-moodle.csv", "moodle", None),
    ("missing.csv", "canvas", "missing.csv::$: no such file"),
])
def test_bad_rosters_get_one_clear_message(roster: str, lms: str, fragment: str | None, graded: Graded,
                                           tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ("--id-column", "student number") if fragment is None else ()
    code, _, err = _export(capsys, graded, tmp_path, lms, roster, *extra)
    assert code == 3
    assert (fragment or "expected a column 'student number' holding the submission ids") in err
    assert "Traceback" not in err
