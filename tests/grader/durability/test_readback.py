"""A run with a journal holds no case result: each report reads the submissions back from the journal, and
gets what a run without one holds in memory (the reports of a class of 1,000 in bounded memory)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import grader.journal as journal_module
from grader.journal import Journal, Submissions
from grader.model import pathcode
from grader.model.results import GradingResults
from grader.pipeline import grade
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded, normalized

FORMAT_1_DEFAULTS = {"visibility": "visible", "cpu_seconds": None, "exit_code": None, "signal": None,
                     "moves": None, "optimal_moves": None, "solvable": None, "problems": [], "notes": [],
                     "stderr": ""}
"""Every field a format-1 writer wrote out that format 2 leaves out when it holds this value."""


def _journaled(out: Path) -> GradingResults:
    return grade(SUBMISSIONS, TESTSET, out, jobs=2, journal=Journal(out, resume=False))


def _untimed(path: Path) -> str:
    """A report's text with its timings blanked (they differ from run to run)."""
    return re.sub(r'\d+\.\d+ s\b|time="[^"]*"', "T", path.read_text(encoding="utf-8"))


def test_the_journal_gives_back_what_memory_held(graded: Graded, tmp_path: Path) -> None:
    out = tmp_path / "out"
    results = _journaled(out)
    assert isinstance(results.submissions, Submissions)
    assert all(shell.cases == () for shell in results.submissions.shells)  # nothing held while grading
    assert [len(s.cases) for s in results.submissions] == [4, 4, 4, 4]
    mine = json.loads((out / "results.json").read_text(encoding="utf-8"))
    theirs = graded.document
    assert mine.pop("testset_hash") == theirs.pop("testset_hash")  # the same settings
    assert normalized(mine) == normalized(theirs)
    assert normalized(results.to_json())["submissions"] == normalized(graded.results.to_json())["submissions"]
    for name in ("grades.csv", "feedback/correct.txt", "feedback/illegal-move.txt", "junit/suboptimal.xml"):
        assert _untimed(out / name) == _untimed(graded.out_dir / name)


def test_a_path_read_back_stays_coded_until_its_boards_are_looked_at(graded: Graded, tmp_path: Path) -> None:
    results = _journaled(tmp_path / "out")
    paths = [case.path for submission in results.submissions for case in submission.cases if case.path]
    assert paths and all(isinstance(path, pathcode.Coded) and path.decoded is None for path in paths)
    held = [case.path for submission in graded.results.submissions for case in submission.cases if case.path]
    assert paths == held and all(path.decoded is not None for path in paths)


def test_a_torn_line_is_left_out_when_read_back(tmp_path: Path) -> None:
    """A line a crash cut short (kill -9 mid-write, then --resume) is not a result; the whole line after it is."""
    out = tmp_path / "out"
    results = _journaled(out)
    assert isinstance(results.submissions, Submissions)
    folder = results.submissions.journal._folder("correct")
    lines = (folder / "cases.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "cases.jsonl").write_bytes(lines[0][:40] + b"\n" + b"".join(lines[1:]) + lines[0])
    index = [s.id for s in results.submissions.shells].index("correct")
    assert [c.case for c in results.submissions[index].cases] == ["small-2x2", "easy-3x3", "mid-3x3",
                                                                  "unsolvable-3x3"]


def test_a_journal_of_format_1_is_resumed_and_read_back(graded: Graded, tmp_path: Path) -> None:
    """A run interrupted under a grader that wrote format 1 (paths as lists, every field) is resumed by this one:
    nothing runs again and the reports are the same."""
    out = tmp_path / "out"
    _journaled(out)
    for lines in (out / ".journal").glob("*/cases.jsonl"):
        old = []
        for line in lines.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            result = entry["result"]
            boards = pathcode.decode(result.get("path"))
            entry["result"] = {**FORMAT_1_DEFAULTS, **result,
                               "path": [list(b) for b in boards] if boards is not None else None}
            old.append(json.dumps({**entry, "format_version": 1}))
        lines.write_text("\n".join(old) + "\n", encoding="utf-8")
    journal = Journal(out, resume=True)
    results = grade(SUBMISSIONS, TESTSET, out, jobs=2, journal=journal)
    assert journal.reused == 16
    assert normalized(results.to_json())["submissions"] == normalized(graded.results.to_json())["submissions"]


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every journal line the run checks as it reads it back."""
    read: list[bytes] = []
    check = journal_module._valid

    def counted(adapter, text, trusted=False):  # type: ignore[no-untyped-def]
        if trusted:
            read.append(text)
        return check(adapter, text, trusted)
    monkeypatch.setattr(journal_module, "_valid", counted)
    return read


def test_the_reports_read_each_result_back_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six reports go over the class: a class whose journal fits the read-back budget has each result read and
    checked once, not once per report (~20 us each)."""
    read = _counting_reads(monkeypatch)
    results = _journaled(tmp_path / "out")
    assert len(read) == len(set(read)) == sum(len(s.cases) for s in results.submissions) == 16


def test_a_class_over_the_read_back_budget_gives_the_same_reports(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget, the least recently read submission is let go and read again when asked for: the same
    submissions, and what is kept stays within the budget."""
    results = _journaled(tmp_path / "out")
    assert isinstance(results.submissions, Submissions)
    journal, shells, order = results.submissions.journal, results.submissions.shells, results.submissions.order
    read = _counting_reads(monkeypatch)
    tight = Submissions(journal, shells, order, keep_bytes=3000)
    first, again = list(tight), list(tight)
    assert first == again == list(results.submissions)
    assert len(read) > 16 and tight._kept_bytes <= 3000
    assert tight[-1] == first[-1]
    read.clear()
    roomy = Submissions(journal, shells, order)
    assert list(roomy) == first and list(roomy) == first and len(read) == 16


def test_a_kept_submission_holds_its_paths_coded_once_the_next_is_asked_for(tmp_path: Path) -> None:
    """What a report decoded from one submission's paths is let go when it moves on to the next: kept read-backs
    hold coded paths, as fresh ones do."""
    results = _journaled(tmp_path / "out")
    submissions = results.submissions
    assert isinstance(submissions, Submissions)
    index = next(i for i, submission in enumerate(submissions) if any(case.path for case in submission.cases))
    looked = [case.path for case in submissions[index].cases if case.path]
    assert all(len(path[:]) == len(path) for path in looked)  # a report looks at the boards
    assert all(isinstance(path, pathcode.Coded) and path.decoded is not None for path in looked)
    submissions[index - 1]
    assert all(isinstance(path, pathcode.Coded) and path.decoded is None for path in looked)
    assert [case.path for case in submissions[index].cases if case.path] == looked  # the same, decoded again
