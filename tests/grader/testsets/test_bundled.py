"""The bundled sets: valid, certified, and shaped as the assignments need them."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from grader.testsets.assignment import find_assignment, load_assignment
from grader.testsets.generate import within_effort
from grader.testsets.importer import name_claim
from grader.testsets.model import load_testset
from solver.formats import parse_puzzle
from solver.solve import solve
from tests.grader.testsets.helpers import grade
from tests.support import REPO, shared_data

CMPE160 = REPO / "testcases" / "cmpe160"
CMPE160_HARD = REPO / "testcases" / "cmpe160-hard"
PLAIN_A_STAR_NODES = 50_000
PRINCETON = REPO / "testcases" / "princeton"
SLOW_PRINCETON = ("puzzle4x4-80",)
"""Re-deriving puzzle4x4-80 (80 moves, the 15-puzzle maximum) takes about 5 minutes; it was
certified when the set was imported (testcases/build.sh)."""


@pytest.mark.parametrize("root", [CMPE160, CMPE160_HARD], ids=lambda root: root.name)
def test_cmpe160_sets_validate(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    code, out, err = grade(capsys, "testcases", "validate", root)
    assert code == 0, out + err


def test_cmpe160_shape() -> None:
    cases = load_testset(CMPE160).cases
    assignment = load_assignment(find_assignment(CMPE160))
    assert (assignment.io, assignment.input_file, assignment.output_file) == ("files", "input.txt", "output.txt")
    assert len(cases) == 41
    assert {c.n for c in cases} == {2, 3, 4, 5}
    assert sum(not c.solvable for c in cases) >= 6
    assert {c.visibility for c in cases} >= {"visible", "hidden"}
    # the default set is the one `grade examples/submissions` runs: no stress cases, one limit
    assert not [c.id for c in cases if c.hard]
    assert all(c.time_limit_seconds is None for c in cases)
    # most of the grading work stays small: the sample submissions are plain A* in Python
    assert sum(c.n <= 3 for c in cases) >= 2 * len(cases) // 3


def test_cmpe160_is_within_reach_of_a_plain_a_star() -> None:
    """A* with Manhattan distance, as the samples and most students write it, expands at most
    50,000 nodes on any case (the most is about 21,000, the 34-move 4x4): a couple of seconds
    in plain Python, well inside the 10 s limit."""
    for case in (c for c in load_testset(CMPE160).cases if c.solvable):
        board = parse_puzzle(case.input_path.read_bytes())
        result = solve(board, "astar", "manhattan", node_limit=PLAIN_A_STAR_NODES)
        assert len(result.path) - 1 == case.optimal_moves, case.id


def test_cmpe160_hard_is_the_stress_tier() -> None:
    cases = load_testset(CMPE160_HARD).cases
    assert [(c.id, c.n, c.optimal_moves) for c in cases] == [("4x4-d50-52-01", 4, 52), ("4x4-d50-52-02", 4, 50)]
    assert all(c.hard and c.visibility == "hidden" and c.time_limit_seconds == 30 for c in cases)
    # the same assignment as the default set: only the cases differ
    hard, default = (load_assignment(find_assignment(root)) for root in (CMPE160_HARD, CMPE160))
    assert hard.limits.wall_seconds < 30
    assert replace(hard, name=None, source="") == replace(default, name=None, source="")
    # no board is in both sets
    boards = {parse_puzzle(c.input_path.read_bytes()).tiles for c in load_testset(CMPE160).cases}
    assert not boards & {parse_puzzle(c.input_path.read_bytes()).tiles for c in cases}


def test_cmpe160_hard_cases_are_within_reach_of_a_good_a_star() -> None:
    """The generator's --deep-max-effort promise: plain IDA* with Manhattan needs at most 1.5M nodes."""
    for case in load_testset(CMPE160_HARD).cases:
        board = parse_puzzle(case.input_path.read_bytes())
        assert within_effort(board, 1_500_000), case.id


def test_cmpe160_holds_the_course_inputs_byte_for_byte() -> None:
    course = shared_data("external-data", "cmpe160")
    inputs = {c.input_path.name: c for c in load_testset(CMPE160).cases if "course" in c.tags}
    originals = sorted(course.glob("*/input*.txt"))
    assert len(inputs) == len(originals) == 7
    for path in originals:
        case = inputs[f"course-{path.parent.name}-{path.name}"]
        assert case.input_path.read_bytes() == path.read_bytes()
        assert case.visibility == "visible"


def test_princeton_shape_and_names() -> None:
    testset = load_testset(PRINCETON)
    assignment = load_assignment(find_assignment(PRINCETON))
    assert assignment.io == "argv" and assignment.unsolvable_wordings == ("No solution possible",)
    assert len(testset) == 150  # 152 files; two repeat another file's board
    for case in testset.cases:
        claim = name_claim(case.input_path.name)
        if claim is not None:
            assert (case.solvable, case.optimal_moves) == (not claim.unsolvable, claim.moves), case.id
    assert testset.by_id("puzzle4x4-hard1").optimal_moves == 38
    assert testset.by_id("puzzle4x4-hard2").optimal_moves == 47
    hard = {c.id for c in testset.cases if c.hard}
    assert {"puzzle4x4-78", "puzzle4x4-80", "puzzle4x4-hard2", "puzzle50"} <= hard
    assert all(c.time_limit_seconds == 60 for c in testset.cases if c.hard)


def test_princeton_files_are_the_course_files() -> None:
    princeton = shared_data("external-data", "princeton")
    for case in load_testset(PRINCETON).cases:
        assert case.input_path.read_bytes() == (princeton / case.input_path.name).read_bytes()


@pytest.mark.slow
def test_princeton_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every Princeton count re-derived except the 80-move board (see SLOW_PRINCETON)."""
    root = tmp_path / "princeton"
    shutil.copytree(PRINCETON, root)
    data = json.loads((root / "manifest.json").read_text())
    for case in [c for c in data["cases"] if c["id"] in SLOW_PRINCETON]:
        data["cases"].remove(case)
        (root / case["input"]).unlink()
    (root / "manifest.json").write_text(json.dumps(data))
    code, out, err = grade(capsys, "testcases", "validate", root)
    assert code == 0, out + err


def test_every_bundled_input_parses_to_its_n() -> None:
    for root in CMPE160, CMPE160_HARD, PRINCETON:
        for case in load_testset(root).cases:
            assert parse_puzzle(case.input_path.read_bytes(), str(case.input_path)).n == case.n
