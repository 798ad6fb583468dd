"""Answers printed as moves, data-driven: every folder in data/moves-outputs is (input, output, expectation).

The folder name starts with the verdict; expect.json holds the case (solvable, optimum),
the assignment's rules (style, move names, goal, strict), the line of the first problem
and fragments its message must contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.judging.moves_format import parse_moves
from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.board import Board, Move
from solver.errors import SolutionFormatError
from solver.formats import parse_puzzle

DATA = Path(__file__).resolve().parent.parent / "data" / "moves-outputs"
FOLDERS = sorted(p for p in DATA.iterdir() if p.is_dir())


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_moves_answer_gets_its_verdict_and_message(folder: Path) -> None:
    expect = json.loads((folder / "expect.json").read_text(encoding="utf-8"))
    board = parse_puzzle((folder / "input.txt").read_bytes())
    result = verify((folder / "output.txt").read_bytes(), Expected(board, expect["solvable"], expect["optimal_moves"]),
                    Rules(**expect["rules"]))
    assert result.verdict is Verdict(expect["verdict"]) == Verdict(folder.name.split("-")[0]), result.message()
    message = result.message("output.txt")
    for fragment in expect.get("message", []):
        assert fragment in message
    if "line" in expect:
        assert result.problems[0].line == expect["line"]


def test_replayed_boards_are_kept_for_the_report() -> None:
    start = Board.from_tiles([1, 4, 2, 3, 0, 5, 6, 7, 8])
    result = verify("UP\nLEFT\n", Expected(start, True, 2), Rules(output_format="moves", blank_first=True))
    assert [b.tiles for b in result.boards] == [start.tiles, (1, 0, 2, 3, 4, 5, 6, 7, 8), tuple(range(9))]
    assert result.moves == 2


def test_an_illegal_move_shows_the_board_it_was_tried_on() -> None:
    result = verify("LEFT\nLEFT\n", Expected(Board.from_tiles([1, 0, 2, 3, 4, 5, 6, 7, 8]), True, 1),
                    Rules(output_format="moves", blank_first=True))
    assert result.verdict is Verdict.WA
    assert "cannot move left" in result.problems[0].message
    assert result.problems[0].detail.splitlines()[0] == "before move 2"


@pytest.mark.parametrize(("text", "style"), [("UP\nLEFT\n", "lines"), ("Up\nleft\n", "lines"),
                                             ("U L", "letters"), ("u,l", "letters"), ("UL\n", "letters"),
                                             ("path_to_goal: ['Up', 'Left']\n", "path_to_goal"),
                                             ('path_to_goal: ["UP","LEFT"]\ncost_of_path: 2', "path_to_goal")])
def test_every_spelling_of_the_same_moves_reads_the_same(text: str, style: str) -> None:
    assert parse_moves(text, style).moves == (Move.UP, Move.LEFT)


@pytest.mark.parametrize(("text", "style", "line"), [("UP\n\nSIDEWAYS\n", "lines", 3), ("U X", "letters", 1),
                                                     ("path_to_goal: Up, Left\n", "path_to_goal", 1),
                                                     ("path_to_goal: ['Up']\ncost_of_path: many\n", "path_to_goal", 2),
                                                     ("UP\x00\n", "lines", 1)])
def test_unreadable_moves_name_their_line(text: str, style: str, line: int) -> None:
    with pytest.raises(SolutionFormatError) as caught:
        parse_moves(text, style)
    assert caught.value.line == line


def test_a_huge_answer_is_read_in_linear_time() -> None:
    # 300,000 moves on one line, as a runaway student program prints them: read, not backtracked over.
    text = "path_to_goal: [" + ", ".join(["'Up'", "'Down'"] * 150_000) + "]\n"
    assert len(parse_moves(text, "path_to_goal").moves) == 300_000
