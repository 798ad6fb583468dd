"""grade testcases validate: passes on sound sets, and on broken copies lists every problem, one per line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.errors import TestsetInvalid
from tests.grader.testsets.helpers import GOLDEN, TINY, grade, scrub, tiny_copy
from tests.support import check_golden


def _edit_manifest(root: Path, change: Callable[[dict], None]) -> None:
    path = root / "manifest.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _add_case(root: Path, case_id: str, text: str, **fields: object) -> None:
    (root / "cases" / f"{case_id}.txt").write_text(text)
    entry = {"id": case_id, "input": f"cases/{case_id}.txt", "n": 3, "solvable": True, "optimal_moves": 1,
             "points": 1, "visibility": "hidden", "tags": []}
    entry.update(fields)
    _edit_manifest(root, lambda d: d["cases"].append(entry))


BREAKAGES: dict[str, Callable[[Path], None]] = {
    "wrong-count": lambda r: _edit_manifest(r, lambda d: d["cases"][2].update(optimal_moves=30)),
    "unsolvable-marked-solvable": lambda r: _edit_manifest(
        r, lambda d: d["cases"][1].update(solvable=True, optimal_moves=3)),
    "solvable-marked-unsolvable": lambda r: _edit_manifest(
        r, lambda d: (d["cases"][0].update(solvable=False), d["cases"][0].pop("optimal_moves"))),
    "missing-file": lambda r: (r / "cases" / "hardest.txt").unlink(),
    "bad-json": lambda r: (r / "manifest.json").write_text('{"format_version": 1,\n  "name": "tiny"\n}}\n'),
    "schema-violation": lambda r: _edit_manifest(r, lambda d: d["cases"][0].update(visibility="public")),
    "wrong-n": lambda r: _edit_manifest(r, lambda d: d["cases"][0].update(n=4)),
    "unparsable-input": lambda r: (r / "cases" / "one-move.txt").write_text("3\n1 2 3\n4 5 6\n7 9 8\n"),
    "duplicate-board": lambda r: _add_case(r, "same-as-one-move", " 3\r\n 1  2  3\r\n 4  5  6\r\n 7  0  8"),
    "unknown-file": lambda r: (r / "cases" / "stray.txt").write_text("2\n1 2\n3 0\n"),
    "broken-assignment": lambda r: (r / "assignment.toml").write_text('io = "socket"\n'),
    "many-at-once": lambda r: (
        _edit_manifest(r, lambda d: (d["cases"][0].update(optimal_moves=2), d["cases"][1].update(points=-1),
                                     d["cases"][2].update(input="cases/gone.txt"))),
        (r / "notes.txt").write_text("todo\n")),
}


def test_tiny_set_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = grade(capsys, "testcases", "validate", TINY)
    assert code == 0, out + err
    assert "OK, 3 cases, every answer re-derived" in out


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_broken_copy_fails_with_every_problem_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     name: str, update_golden: bool) -> None:
    root = tiny_copy(tmp_path)
    BREAKAGES[name](root)
    code, out, err = grade(capsys, "testcases", "validate", root)
    assert code == TestsetInvalid.exit_code == 8
    problems = out.splitlines()
    assert problems, "every problem is printed on stdout"
    assert all(str(root) in line for line in problems), "each problem names its file"
    assert err.strip() == f"grade: {root}: {len(problems)} problem(s) listed above"
    check_golden(GOLDEN / "validate" / f"{name}.txt", scrub(out, root), update_golden)


def test_many_problems_are_all_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tiny_copy(tmp_path)
    BREAKAGES["many-at-once"](root)
    _, out, _ = grade(capsys, "testcases", "validate", root)
    fields = [line.split(": ")[0].rsplit("::", 1)[-1] for line in out.splitlines()]
    assert fields == ["$.cases[1].points", "$.cases[0].optimal_moves", "$.cases[2].input",
                      f"{root}/cases/hardest.txt", f"{root}/notes.txt"]


def test_validate_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = grade(capsys, "testcases", "validate", tmp_path / "nowhere")
    assert code == 8
    assert out.strip() == f"{tmp_path}/nowhere/manifest.json::$: no manifest here (expected a manifest.json)"
