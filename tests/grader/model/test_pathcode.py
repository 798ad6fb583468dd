"""results.json format 2: printed paths coded as a first board and moves, exact for any path a program prints,
and format-1 files (paths as lists) still read, merged and reported alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.cli import entry
from grader.errors import ConfigError
from grader.model import pathcode
from grader.model.results import TRUSTED, CaseResult
from grader.model.verdicts import Verdict
from grader.reports.json_results import case_from_json, read_results, results_from_json
from tests.grader.sampleclass import Graded

# Every path here must come back exactly; the comment says what the coder must not assume.
PATHS = {
    "legal 3x3 walk": [[1, 2, 3, 4, 0, 5, 7, 8, 6], [1, 2, 3, 4, 5, 0, 7, 8, 6], [1, 2, 3, 4, 5, 6, 7, 8, 0]],
    "jump over two squares": [[0, 1, 2, 3], [1, 2, 0, 3]],
    "wrap from a row's end to the next row": [[1, 2, 0, 3, 4, 5, 6, 7, 8], [1, 2, 3, 0, 4, 5, 6, 7, 8]],
    "the same board twice": [[1, 0, 2, 3], [1, 0, 2, 3], [0, 1, 2, 3]],
    "a board of another size mid-path": [[1, 0, 2, 3], [1, 2, 3, 4, 0, 5, 6, 7, 8], [1, 2, 3, 4, 5, 0, 6, 7, 8]],
    "duplicate tiles, blank moved": [[5, 5, 0, 5], [5, 0, 5, 5]],
    "two blanks": [[0, 0, 1, 2], [0, 0, 2, 1], [1, 0, 0, 2]],
    "no blank after a legal step": [[1, 0, 2, 3], [1, 2, 3, 4]],
    "first board without a blank": [[1, 2, 3, 4], [1, 2, 3, 0]],
    "first board not square": [[0, 1, 2, 3, 4], [1, 0, 2, 3, 4]],
    "huge tile numbers": [[0, 99999, 2, 3], [99999, 0, 2, 3]],
    "one board": [[1, 2, 3, 0]],
    "empty": [],
}


@pytest.mark.parametrize("path", PATHS.values(), ids=PATHS.keys())
def test_a_coded_path_decodes_to_the_boards_printed(path: list[list[int]]) -> None:
    coded = json.loads(json.dumps(pathcode.encode(path)))  # as it comes back from the file
    assert pathcode.decode(coded) == tuple(tuple(board) for board in path)


def test_a_legal_walk_codes_to_letters() -> None:
    assert pathcode.encode(PATHS["legal 3x3 walk"]) == {"first": [1, 2, 3, 4, 0, 5, 7, 8, 6], "steps": "RD"}
    assert pathcode.encode(PATHS["jump over two squares"]) == {"first": [0, 1, 2, 3], "steps": "*",
                                                               "jumps": {"1": [1, 2, 0, 3]}}


BAD_CODES = {
    "a star without its board": ({"first": [0, 1, 2, 3], "steps": "R*"}, "step 2 is '*' but jumps has no board 2"),
    "a board without its star": ({"first": [0, 1, 2, 3], "steps": "R", "jumps": {"1": [1, 0, 2, 3]}},
                                 "jumps has board 1, but step 1 is not '*'"),
    "off the board": ({"first": [0, 1, 2, 3], "steps": "U"}, "step 1 moves the blank 'U' off the board"),
}


@pytest.mark.parametrize("coded, message", BAD_CODES.values(), ids=BAD_CODES.keys())
def test_a_coded_path_that_does_not_add_up_is_named(coded: dict, message: str) -> None:
    document = {"format_version": 2, "testset": "t", "assignment": {}, "cases": [], "max_score": 1,
                "interrupted": False, "isolation": [], "submissions": [{
                    "id": "s", "score": 0, "max_score": 1, "verdict": "WA", "counts": {"WA": 1}, "complete": True,
                    "language": "python", "build": {}, "cases": [{"case": "c", "verdict": "WA", "points": 0,
                                                                 "max_points": 1, "message": "", "seconds": 0,
                                                                 "path": coded}]}]}
    with pytest.raises(ConfigError) as info:
        results_from_json(document, "r.json")
    assert str(info.value).startswith(f"r.json::$.submissions[0].cases[0].path: {message}")


def test_default_values_are_left_out_and_read_back() -> None:
    result = CaseResult(case="c", verdict=Verdict.AC, points=1.0, max_points=1.0, message="ok", seconds=0.5)
    assert result.to_json() == {"case": "c", "verdict": "AC", "points": 1.0, "max_points": 1.0, "message": "ok",
                                "seconds": 0.5}
    assert case_from_json(result.to_json()) == result


def _as_format_1(document: dict) -> dict:
    """The document as a grader before format 2 wrote it: every path as lists, every field written out."""
    old = json.loads(json.dumps(document))
    old["format_version"] = 1
    for submission in old["submissions"]:
        for case in submission["cases"]:
            full = {"visibility": "visible", "cpu_seconds": None, "exit_code": None, "signal": None, "moves": None,
                    "optimal_moves": None, "solvable": None, "problems": [], "notes": [], "stderr": "", **case}
            full["path"] = [list(b) for b in pathcode.decode(case.get("path"))] if case.get("path") else None
            case.clear()
            case.update(full)
    return old


def test_a_format_1_file_is_reported_and_merged_as_before(graded: Graded, tmp_path: Path) -> None:
    old = tmp_path / "old" / "results.json"
    old.parent.mkdir()
    old.write_text(json.dumps(_as_format_1(graded.document), indent=2), encoding="utf-8")
    assert entry(["report", str(old)]) == 0
    assert (old.parent / "report.html").read_text(encoding="utf-8") == \
        (graded.out_dir / "report.html").read_text(encoding="utf-8")
    assert entry(["merge", str(tmp_path / "merged"), str(old)]) == 0
    merged = read_results(tmp_path / "merged" / "results.json")
    assert json.loads((tmp_path / "merged" / "results.json").read_text(encoding="utf-8"))["format_version"] == 2
    assert merged.submissions == graded.results.submissions


@pytest.mark.parametrize("path", [p for p in PATHS.values() if isinstance(pathcode.encode(p), dict)])
def test_a_path_read_back_lazily_is_its_boards_and_writes_its_code_again(path: list[list[int]]) -> None:
    """What the journal gives the reports: a result written again keeps its code; one replayed gets the boards."""
    code = json.loads(json.dumps(pathcode.encode(path)))
    entry = {"case": "c", "verdict": "WA", "points": 0, "max_points": 1, "message": "", "seconds": 0, "path": code}
    read = CaseResult.__pydantic_validator__.validate_python(entry, context={TRUSTED: True}).path
    assert isinstance(read, pathcode.Coded) and read.decoded is None  # nothing decoded yet
    assert pathcode.encode(read) is code
    assert read == tuple(tuple(board) for board in path) and len(read) == len(path)
    assert list(read) == [tuple(board) for board in path]
