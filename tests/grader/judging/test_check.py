"""`grade check`: exit 0 on the reference solver's output; exit 7 listing each problem with its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.cli import entry
from grader.judging import check
from solver.board import Board
from solver.formats import format_solution
from solver.solve import solve

DATA = Path(__file__).resolve().parent.parent / "data" / "outputs"
BROKEN = sorted(p for p in DATA.iterdir() if p.is_dir() and p.name.split("-")[0] in ("WA", "PE", "NO", "SUB"))
GOOD = sorted(p for p in DATA.iterdir() if p.is_dir() and p.name.startswith("AC-"))


def flags(folder: Path) -> list[str]:
    rules = json.loads((folder / "expect.json").read_text()).get("rules", {})
    return (["--strict"] if rules.get("strict") else []) \
        + (["--goal", "blank-first"] if rules.get("blank_first") else []) \
        + [arg for wording in rules.get("unsolvable_wordings", []) for arg in ("--wording", wording)]


@pytest.mark.parametrize("folder", GOOD, ids=lambda p: p.name)
def test_valid_output_passes(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = entry(["check", str(folder / "output.txt"), "--input", str(folder / "input.txt"), *flags(folder)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "OK" in out


@pytest.mark.parametrize("folder", BROKEN, ids=lambda p: p.name)
def test_broken_output_fails_naming_the_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = json.loads((folder / "expect.json").read_text())
    code = entry(["check", str(folder / "output.txt"), "--input", str(folder / "input.txt"), *flags(folder)])
    captured = capsys.readouterr()
    assert code == 7
    output = str(folder / "output.txt")
    if "line" in expect:
        assert f"{output}:{expect['line']}: " in captured.out
    assert "the output has problems" in captured.err


def test_reference_solver_output_without_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = Board.from_tiles([8, 1, 3, 4, 0, 2, 7, 6, 5])
    output = tmp_path / "output.txt"
    output.write_text(format_solution(solve(board).path))
    assert entry(["check", str(output)]) == 0
    assert "taken as the input" in capsys.readouterr().out


def test_every_illegal_step_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = list(solve(Board.from_tiles([0, 1, 2, 3, 4, 5, 6, 7, 8])).path)
    path[5], path[15] = Board.from_tiles(path[5].tiles[::-1]), Board.from_tiles(path[15].tiles[::-1])
    output = tmp_path / "output.txt"
    output.write_text(format_solution(path))
    assert entry(["check", str(output)]) == 7
    listed = [line for line in capsys.readouterr().out.splitlines() if "not a legal move" in line]
    assert [line.split(":")[1] for line in listed] == ["27", "32", "77", "82"]


def test_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert entry(["check", str(tmp_path / "nope.txt")]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.txt" in err


def test_preset_gives_the_course_wordings(capsys: pytest.CaptureFixture[str]) -> None:
    folder = DATA / "PE-campus-wording-where-coursera-wording-is-required"
    args = ["check", str(folder / "output.txt"), "--input", str(folder / "input.txt")]
    assert entry([*args, "--preset", "coursera-princeton"]) == 7
    assert "the wordings this assignment accepts: 'No solution possible'" in capsys.readouterr().out
    assert entry([*args, "--preset", "cos226-campus"]) == 0


# A student of a moves-output course checks an answer without the TA's assignment.toml: --format names it.
MOVES_ANSWERS = [
    ("moves", [], "UP\nLEFT\n", 0),
    ("path_to_goal", [], "path_to_goal: ['Up', 'Left']\ncost_of_path: 2\n", 0),
    ("letters", [], "UL\n", 0),
    ("moves", ["--move-names", "tile"], "DOWN\nRIGHT\n", 0),
    ("moves", [], "DOWN\nRIGHT\n", 7),   # the tile's directions, read as the blank's: wrong
    ("boards", [], "UP\nLEFT\n", 7),     # the boards format does not read moves
]


@pytest.mark.parametrize("answer_format, extra, text, code", MOVES_ANSWERS)
def test_a_moves_answer_is_checked_with_the_format_named(answer_format: str, extra: list[str], text: str, code: int,
                                                         tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = tmp_path / "input.txt"
    puzzle.write_text("3\n1 4 2\n3 0 5\n6 7 8\n")  # blank-first goal: the blank goes up, then left
    answer = tmp_path / "output.txt"
    answer.write_text(text)
    assert entry(["check", str(answer), "--input", str(puzzle), "--goal", "blank-first",
                  "--format", answer_format, *extra]) == code, capsys.readouterr().out


@pytest.mark.parametrize("board, blank_first", [(Board.goal(100), False), (Board.goal(3, blank_first=True), True)],
                         ids=["100x100", "blank-first-3x3"])
def test_a_solved_board_is_optimal_at_zero_moves_with_no_search(board: Board, blank_first: bool,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A 100x100 search would set up seconds of tables for nothing: the solved board answers itself.
    monkeypatch.setattr(check, "solve", lambda *args, **kwargs: pytest.fail("searched a solved board"))
    assert check.optimum(board, blank_first) == 0
