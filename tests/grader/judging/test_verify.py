"""Verification, data-driven: every folder in data/outputs is an (input, output, expectation).

The folder name starts with the verdict; expect.json gives the line the first problem is
on and fragments its message must contain. They reproduce the outputs of real
submissions (see ../shared/docs/real-submissions.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.board import Board
from solver.formats import format_solution, parse_puzzle
from solver.solve import solve

DATA = Path(__file__).resolve().parent.parent / "data" / "outputs"
FOLDERS = sorted(p for p in DATA.iterdir() if p.is_dir())


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_output_gets_its_verdict_and_message(folder: Path) -> None:
    expect = json.loads((folder / "expect.json").read_text(encoding="utf-8"))
    board = parse_puzzle((folder / "input.txt").read_bytes())
    result = verify((folder / "output.txt").read_bytes(), Expected(board, expect["solvable"], expect["optimal_moves"]),
                    Rules(**expect.get("rules", {})))
    assert result.verdict is Verdict(expect["verdict"]) == Verdict(folder.name.split("-")[0])
    message = result.message("output.txt")
    for fragment in expect.get("message", []):
        assert fragment in message
    if "line" in expect:
        assert result.problems[0].line == expect["line"]
        assert message.startswith(f"output.txt:{expect['line']}: ")


def test_failed_step_shows_both_boards_side_by_side() -> None:
    result = verify((DATA / "WA-correct-k-illegal-path" / "output.txt").read_bytes(),
                    Expected(Board.from_tiles(range(9)), True, 22))
    detail = result.problems[0].detail.splitlines()
    assert detail[0].split() == ["line", "47", "line", "52"]
    assert len(detail) == 4 and "[" in detail[1] + detail[2] + detail[3]


def test_every_problem_is_listed_not_only_the_first() -> None:
    result = verify((DATA / "WA-first-board-missing" / "output.txt").read_bytes(),
                    Expected(Board.from_tiles(range(9)), True, 22))
    assert [p.line for p in result.problems] == [2, 1]  # the missing input, then K vs the board count


def test_strict_lists_each_format_note_and_lenient_keeps_them() -> None:
    output = (DATA / "AC-crlf" / "output.txt").read_bytes()
    expected = Expected(Board.from_tiles(range(9)), True, 22)
    lenient = verify(output, expected)
    assert lenient.verdict is Verdict.AC and lenient.notes
    strict = verify(output, expected, Rules(strict=True))
    assert strict.verdict is Verdict.PE and len(strict.problems) == len(lenient.notes)


@pytest.mark.parametrize("tiles", [[1, 2, 3, 0], [0, 3, 2, 1], [4, 1, 2, 5, 0, 3, 7, 8, 6]])
def test_reference_solver_output_is_accepted(tiles: list[int]) -> None:
    board = Board.from_tiles(tiles)
    result = solve(board)
    text = format_solution(result.path if result.solvable else None)
    verification = verify(text, Expected(board, result.solvable, result.moves if result.solvable else None))
    assert verification.verdict is Verdict.AC, verification.message()
