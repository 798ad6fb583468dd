"""A run with a journal holds no case result: each report reads the submissions back from the journal, and
gets what a run without one holds in memory (the reports of a class of 1,000 in bounded memory)."""

from __future__ import annotations

import json
import re
from pathlib import Path

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
