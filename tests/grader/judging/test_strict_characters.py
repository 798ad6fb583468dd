"""--strict reads ASCII digits, spaces and LF/CRLF only: any other digit, space or line break is a
note in normal grading and PE under --strict (in a run and in ``grade check``); the lenient reading
still understands it, so the verdict otherwise stays the one the path earns."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.judging.check import check_output
from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.board import Board
from solver.formats import format_solution, parse_puzzle

START = Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8])
EXACT = format_solution([START, Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 0, 8]), Board.goal(3)])
ASCII = "0123456789"

# (name, how the exact answer is rewritten, the kind of note it must raise)
CASES = [
    ("arabic-indic-digits", lambda t: t.translate(str.maketrans(ASCII, "٠١٢٣٤٥٦٧٨٩")), "non-ASCII digits"),
    ("full-width-digits", lambda t: t.translate(str.maketrans(ASCII, "０１２３４５６７８９")), "non-ASCII digits"),
    ("devanagari-digits", lambda t: t.translate(str.maketrans(ASCII, "०१२३४५६७८९")), "non-ASCII digits"),
    ("one-arabic-digit", lambda t: t.replace("4 5 6", "٤ 5 6", 1), "non-ASCII digits"),
    ("u2028-line-separator", lambda t: t.replace("\n", "\u2028"), "line break"),
    ("u2029-paragraph-separator", lambda t: t.replace("\n", "\u2029", 3), "line break"),
    ("u0085-next-line", lambda t: t.replace("\n", "\x85"), "line break"),
    ("vertical-tab", lambda t: t.replace("\n\n", "\n\x0b", 1), "line break"),
    ("form-feed", lambda t: t.replace("\n\n", "\n\x0c"), "line break"),
    ("lone-cr", lambda t: t.replace("\n", "\r"), "line break"),
    ("nbsp", lambda t: t.replace(" ", "\xa0"), "space character"),
    ("ideographic-space", lambda t: t.replace("1 2 3", "1\u30002 3"), "space character"),
    ("tab", lambda t: t.replace("1 2 3", "1\t2\t3"), "space character"),
]


def expected() -> Expected:
    return Expected(START, solvable=True, optimal_moves=2)


@pytest.mark.parametrize("rewrite, kind", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_odd_characters_are_a_note_then_pe_under_strict(rewrite, kind: str) -> None:
    text = rewrite(EXACT)
    lenient = verify(text.encode(), expected(), Rules())
    assert lenient.verdict is Verdict.AC, lenient.problems
    assert kind in {note.kind for note in lenient.notes}
    strict = verify(text.encode(), expected(), Rules(strict=True))
    assert strict.verdict is Verdict.PE
    assert any(problem.message.startswith("format: ") and ("digits other" in problem.message or "other than" in
                                                           problem.message) for problem in strict.problems)


@pytest.mark.parametrize("text", [EXACT, EXACT.replace("\n", "\r\n")], ids=["lf", "crlf"])
def test_ascii_with_lf_or_crlf_raises_no_character_note(text: str) -> None:
    result = verify(text.encode(), expected(), Rules(strict=True))
    assert not {note.kind for note in result.notes} & {"non-ASCII digits", "line break", "space character"}
    assert result.verdict is (Verdict.AC if "\r" not in text else Verdict.PE)  # CRLF is its own note


def test_grade_check_strict_refuses_them_too(tmp_path: Path) -> None:
    (tmp_path / "input.txt").write_text("3\n1 2 3\n4 5 6\n0 7 8\n")
    answer = tmp_path / "output.txt"
    answer.write_text(EXACT.translate(str.maketrans(ASCII, "٠١٢٣٤٥٦٧٨٩")), encoding="utf-8")
    assert not check_output(answer, tmp_path / "input.txt", Rules(strict=True)).ok
    lenient = check_output(answer, tmp_path / "input.txt", Rules())
    assert lenient.ok and any("format note (forgiven): digits other than ASCII" in line for line in lenient.lines)


def test_the_solvers_own_puzzle_reading_is_unchanged() -> None:
    # The shared parser still reads what it read before (the solver accepts any Unicode digits and spaces).
    assert parse_puzzle("3\n١ 2 3\n0\xa04 5\n6 7 8\n").tiles == (1, 2, 3, 0, 4, 5, 6, 7, 8)
