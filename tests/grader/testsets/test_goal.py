"""Test sets for the blank-first goal (0 1 2 …): generate, import and validate certify for the assignment's goal.

A set certified for the blank-last goal holds the wrong counts for a blank-first assignment
(a correct 0-move answer got JE) and, for even N, the wrong solvability (a 2x2 or 4x4 set
stopped the run). The set records its goal; grading refuses a set made for another goal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.testsets.certify import certify
from grader.testsets.model import load_testset
from solver.board import Board
from solver.formats import parse_puzzle
from tests.grader.testsets.helpers import grade

SMALL = ("--random-3x3", "2", "--bucket", "4:6-10:1", "--deep-4x4", "0", "--two-by-two", "2",
         "--unsolvable", "2,3,4", "--solved-sizes", "2,3,4", "--no-hardest", "-q")
CORNER_CELLS = {"tl": 0, "tr": 2, "bl": 6, "br": 8}


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from grader.cli import entry

    root = tmp_path_factory.mktemp("goal")
    made = {}
    for goal in ("blank-last", "blank-first"):
        assert entry(["testcases", "generate", str(root / goal), "--seed", "goal", "--goal", goal, *SMALL]) == 0
        made[goal] = root / goal
    return made


def _boards(root: Path) -> dict[str, Board]:
    return {case.id: parse_puzzle(case.input_path.read_bytes()) for case in load_testset(root).cases}


def test_every_count_is_certified_for_the_blank_first_goal(sets: dict[str, Path]) -> None:
    testset = load_testset(sets["blank-first"])
    assert testset.goal == "blank-first"
    assert json.loads((sets["blank-first"] / "manifest.json").read_text())["goal"] == "blank-first"
    boards = _boards(sets["blank-first"])
    for case in testset.cases:
        board = boards[case.id]
        cert = certify(board, blank_first=True)
        assert (cert.solvable, cert.moves) == (case.solvable, case.optimal_moves), case.id
        if case.id.endswith("-solved"):
            assert board == Board.goal(board.n, blank_first=True) and case.optimal_moves == 0
        if "-corner-" in case.id:
            assert board.blank == CORNER_CELLS[case.id.rsplit("-", 1)[1]], case.id


def test_even_sizes_change_solvability_with_the_goal(sets: dict[str, Path]) -> None:
    # For even N the two goals are in different parity classes; for odd N in the same one.
    boards = _boards(sets["blank-first"])
    for case in load_testset(sets["blank-first"]).cases:
        standard = boards[case.id].is_solvable()
        assert standard == case.solvable if boards[case.id].n % 2 else standard != case.solvable, case.id


def test_the_blank_first_set_is_the_image_of_the_blank_last_one(sets: dict[str, Path]) -> None:
    # (The corner cases are drawn anew, so that the blank sits in the corner their names say.)
    last, first = load_testset(sets["blank-last"]), load_testset(sets["blank-first"])
    assert [c.id for c in last.cases] == [c.id for c in first.cases]
    assert [(c.id, c.solvable, c.optimal_moves, c.tags) for c in last.cases if "-corner-" not in c.id] == \
           [(c.id, c.solvable, c.optimal_moves, c.tags) for c in first.cases if "-corner-" not in c.id]
    images = {case_id: board.standardized(True) for case_id, board in _boards(sets["blank-last"]).items()}
    assert all(images[i] == b for i, b in _boards(sets["blank-first"]).items() if "-corner-" not in i)
    assert "goal" not in json.loads((sets["blank-last"] / "manifest.json").read_text())


def test_validate_rederives_for_the_sets_goal(sets: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = grade(capsys, "testcases", "validate", sets["blank-first"])
    assert code == 0 and ": OK," in out


def test_validate_refuses_an_assignment_with_another_goal(sets: dict[str, Path], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "set"
    shutil.copytree(sets["blank-first"], copy)
    (copy / "assignment.toml").write_text('[output]\ngoal = "blank-last"\n')
    code, out, _ = grade(capsys, "testcases", "validate", copy)
    assert code == 8
    assert f"{copy}/assignment.toml::$.output.goal: the assignment's goal is blank-last, but {copy}/manifest.json " \
           "was certified for the blank-first goal" in out


def test_validate_finds_counts_certified_for_the_other_goal(sets: dict[str, Path], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "set"
    shutil.copytree(sets["blank-last"], copy)
    manifest = copy / "manifest.json"
    text = manifest.read_text().replace('"format_version": 1,', '"format_version": 1, "goal": "blank-first",')
    manifest.write_text(text)
    code, out, _ = grade(capsys, "testcases", "validate", copy)
    assert code == 8
    assert "case '3x3-solved' says 0, the reference solver finds" in out
    assert "case '4x4-solved' is marked solvable, but its board is unsolvable" in out


def test_import_certifies_for_the_goal_of_the_assignment_beside_the_set(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "boards"
    source.mkdir()
    (source / "solved.txt").write_text("3\n0 1 2\n3 4 5\n6 7 8\n")
    (source / "two.txt").write_text("3\n1 4 2\n3 0 5\n6 7 8\n")
    (source / "even.txt").write_text("2\n1 0\n2 3\n")
    out_dir = tmp_path / "set"
    out_dir.mkdir()
    (out_dir / "assignment.toml").write_text('[output]\ngoal = "blank-first"\n')
    code, _, _ = grade(capsys, "testcases", "import", source, "--out", out_dir, "-q")
    assert code == 0
    testset = load_testset(out_dir)
    assert testset.goal == "blank-first"
    assert {c.id: c.optimal_moves for c in testset.cases} == {"even": 1, "solved": 0, "two": 2}
    # Appending cases certified for the other goal is refused.
    more = tmp_path / "more"
    more.mkdir()
    (more / "three.txt").write_text("3\n1 2 0\n3 4 5\n6 7 8\n")
    code, _, err = grade(capsys, "testcases", "import", more, "--out", out_dir, "--append", "--goal", "blank-last")
    assert code == 6 and "the set was certified for the blank-first goal, the new cases for blank-last" in err
    code, _, _ = grade(capsys, "testcases", "import", more, "--out", out_dir, "--append", "-q")
    assert code == 0 and load_testset(out_dir).by_id("three").optimal_moves == 2


def test_a_correct_answer_in_the_boards_format_is_ac_on_every_case(sets: dict[str, Path]) -> None:
    # The reference solver's own path, mapped back to the blank-first goal, printed in the boards
    # format: AC everywhere (a 0-move answer was JE, and a 2x2 or 4x4 set stopped the run).
    from grader.judging.verdicts import Verdict
    from grader.judging.verify import Expected, Rules, verify
    from solver.formats import format_solution
    from solver.solve import solve

    boards = _boards(sets["blank-first"])
    for case in load_testset(sets["blank-first"]).cases:
        board = boards[case.id]
        result = solve(board.standardized(True))
        path = [b.standardized(True) for b in result.path] if result.path is not None else None
        verification = verify(format_solution(path), Expected(board, case.solvable, case.optimal_moves),
                              Rules(blank_first=True))
        assert verification.verdict is Verdict.AC, (case.id, verification.message())
