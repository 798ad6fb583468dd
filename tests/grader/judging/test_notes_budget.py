"""Format notes collapse by kind and every case result has a size budget, whatever was printed."""

from __future__ import annotations

import json

import pytest

from grader.judging.moves_format import parse_moves
from grader.judging.verdicts import Verdict
from grader.model.results import CaseResult
from grader.reports.budget import CASE_BYTES, PATH_BYTES, within_budget
from solver.formats import parse_solution
from solver.notes import MAX_NOTE_KINDS, Note, collapse_notes

SPELLINGS = ["No solution possible", "no Solution possible", "NO SOLUTION POSSIBLE", "No  solution  possible",
             "no solution possible.", "No solution possible!"]


def wordings(lines: int) -> str:
    return "".join(" " * (i % 4) + SPELLINGS[i % len(SPELLINGS)] + " " * (i % 3) + "\n" for i in range(lines))


@pytest.mark.parametrize("text, kinds, counted", [
    # Every line a different spelling or padding: one note per kind, each with its count.
    (wordings(40_000), {"unsolvable wording", "leading or trailing spaces"}, "lines, the first shown"),
    ("No solution possible\n" + "\n" * 50_000, {"an extra empty line"}, "on 50,000 lines"),
    ("Minimum number of moves =  0\n" * 3 + "2\n1 2\n3 0\n\n", {"header spacing", "header again"}, "on 3 lines"),
], ids=["wordings", "blank-lines", "headers"])
def test_notes_collapse_by_kind_not_text(text: str, kinds: set[str], counted: str) -> None:
    notes = parse_solution(text, n=2).notes
    assert {note.kind or note.message for note in notes} == kinds
    assert any(counted in note.message for note in notes)


def test_move_spellings_are_one_note() -> None:
    text = "".join(word + "\n" for word in ["up", "Up", "uP", "u", "UP"] * 2_000)
    [note] = parse_moves(text, "lines").notes
    assert note.kind == "move spelling" and "on 8,000 lines" in note.message


def test_kinds_past_the_cap_are_counted_in_one_note() -> None:
    notes = collapse_notes(Note(line, f"deviation {line}", f"kind {line}") for line in range(1, 40))
    assert len(notes) == MAX_NOTE_KINDS
    assert notes[-1].message.startswith(f"and {39 - MAX_NOTE_KINDS + 1} more kinds")


def huge_result() -> CaseResult:
    return CaseResult(case="c", verdict=Verdict.PE, points=0.0, max_points=1.0, message="m" * 5_000_000, seconds=1.0,
                      problems=tuple("p" * 10_000 for _ in range(10_000)),
                      notes=tuple("n" * 10_000 for _ in range(10_000)), stderr="e" * 5_000_000,
                      path=tuple(tuple(range(9)) for _ in range(100_000)))


def test_no_case_result_passes_its_budget() -> None:
    bounded = within_budget(huge_result()).to_json()
    assert len(json.dumps(bounded)) <= CASE_BYTES
    assert bounded.get("path") is None and "100,000 boards" in bounded["notes"][-1]
    assert bounded["message"].endswith("more characters cut)") and bounded["problems"][-1].startswith("… and 9,980")


def test_an_ordinary_result_is_unchanged() -> None:
    ordinary = CaseResult(case="c", verdict=Verdict.AC, points=1.0, max_points=1.0, message="solved in 2 moves",
                          seconds=0.1, notes=("line 1: CRLF line endings",), path=((1, 2, 3, 0), (1, 2, 3, 0)))
    assert within_budget(ordinary) == ordinary


@pytest.mark.parametrize("n", [2, 3, 4, 10, 32])
def test_a_path_is_cut_exactly_where_its_json_passes_the_budget(n: int) -> None:
    # The check for an ordinary result estimates the path's JSON from above; a path that fits just under the
    # budget is kept, and one just over it is not, whatever the board size.
    board = tuple(range(n * n))
    size = len(json.dumps([list(board)] * 2)) - len(json.dumps([list(board)]))  # what one more board adds
    fits = (PATH_BYTES - 2) // size
    for boards, kept in ((fits, True), (fits + 2, False)):
        result = CaseResult(case="c", verdict=Verdict.AC, points=1.0, max_points=1.0, message="", seconds=0.1,
                            path=(board,) * boards)
        assert (within_budget(result).path is not None) is kept, (boards, kept)
