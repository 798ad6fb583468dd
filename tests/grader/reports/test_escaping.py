"""Student-chosen ids in reports: one file per id, no spreadsheet formulas, no raw escape sequences."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.judging.verdicts import Verdict
from grader.model.results import CaseResult, GradingResults, SubmissionResult
from grader.reports.csv_grades import csv_text
from grader.reports.escaping import csv_cell, safe_name, terminal_safe
from grader.reports.feedback import write_feedback
from grader.reports.junit import write_junit
from grader.reports.table import render

CASES = ({"id": "3x3-d3", "points": 1.0, "n": 3, "solvable": True, "optimal_moves": 3, "visibility": "visible"},)
# Pairs a plain "replace what a file name cannot hold" would merge into one file.
COLLIDING = [("dup x", "dup_x"), ("dup x", "dup?x"), ("çağrı", "cagri"), ("Şule", "Sule"), ("ığdır", "igdir"),
             ("ali/veli", "ali_veli"), ("x" * 300, "x" * 301), (".hidden", "hidden"), ("..", "_")]


def results(*ids: str) -> GradingResults:
    return GradingResults(
        testset="demo", testset_path="t", assignment={"io": "files"}, cases=CASES,
        submissions=tuple(SubmissionResult(sid, "python", {"ok": True}, (
            CaseResult(case="3x3-d3", verdict=Verdict.WA, points=0.0, max_points=1.0, message=f"message for {sid}",
                       seconds=0.1, visibility="visible"),), max_score=1.0) for sid in ids))


@pytest.mark.parametrize("pair", COLLIDING, ids=lambda p: f"{p[0][:10]}|{p[1][:10]}")
def test_ids_that_sanitise_alike_get_their_own_files(pair: tuple[str, str], tmp_path: Path) -> None:
    graded = results(*pair)
    write_feedback(graded, tmp_path / "feedback")
    write_junit(graded, tmp_path)
    for folder, suffix in ((tmp_path / "feedback", ".txt"), (tmp_path / "junit", ".xml")):
        files = sorted(folder.iterdir())
        assert len(files) == 2
        for sid in pair:
            assert f"message for {sid}" in (folder / f"{safe_name(sid)}{suffix}").read_text(encoding="utf-8")


@pytest.mark.parametrize("sid", ["alice", "AC-python-correct", "s2021_0042", "bob.smith", "x-1"])
def test_plain_ids_keep_their_name(sid: str) -> None:
    assert safe_name(sid) == sid


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.text(min_size=1, max_size=120), st.text(min_size=1, max_size=120))
def test_safe_name_is_injective_and_a_valid_file_name(a: str, b: str) -> None:
    for name in (safe_name(a), safe_name(b)):
        assert name not in (".", "..") and "/" not in name and "\x00" not in name
        assert not name.startswith(".") and len(name.encode()) <= 120
    assert (safe_name(a) == safe_name(b)) == (a == b)


def test_a_plain_id_that_looks_hashed_cannot_take_a_hashed_name() -> None:
    forged = safe_name("dup x")  # dup_x-<16 hex>, chosen as a folder name by another student
    assert safe_name(forged) != forged


@pytest.mark.parametrize("sid", ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "\uff1d1+1", "=HYPERLINK(\"http://x\")"])
def test_grades_csv_neutralises_formulas(sid: str) -> None:
    rows = list(csv.reader(io.StringIO(csv_text(results(sid)), newline="")))
    assert rows[1][0] == "'" + sid
    assert csv_cell("alice") == "alice"


@pytest.mark.parametrize("sid", ["\t=1", "\r=1+2", "a\nb,=1", "x\r\n=2,3"])
def test_control_characters_cannot_start_a_formula_or_a_row(sid: str) -> None:
    rows = list(csv.reader(io.StringIO(csv_text(results(sid)), newline="")))
    assert len(rows) == 2 and len(rows[1]) == len(rows[0])
    assert not rows[1][0].startswith(("=", "+", "-", "@", "\t", "\r", "\n"))
    assert rows[1][0] == csv_cell(sid) and "\\x" in rows[1][0]


def test_terminal_escapes_are_shown_not_sent() -> None:
    sid = "evil\x1b[2J\x1b]0;owned\x07\u202etxt.exe\x9b"
    table = render(results(sid, "alice"), detail=True)
    assert not any(ch in table for ch in "\x1b\x07\u202e\x9b")
    assert "evil\\x1b[2J\\x1b]0;owned\\x07\\u202etxt.exe\\x9b" in table
    assert terminal_safe("line 1\nline\x1b 2", keep_newlines=True) == "line 1\nline\\x1b 2"
    assert terminal_safe("Çağrı Öztürk") == "Çağrı Öztürk"
