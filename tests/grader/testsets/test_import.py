"""grade testcases import: certifies every file, cross-checks counts that file names state."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.testsets.importer import name_claim
from grader.testsets.model import load_testset
from tests.grader.testsets.helpers import grade, tiny_copy
from tests.support import shared_data

# Princeton-style files: the count in the name is the optimum (checked by the tests below).
FILES = {
    "puzzle3x3-01.txt": "3\n 1  2  3 \n 4  5  6 \n 7  0  8 \n",
    "puzzle3x3-04.txt": "3\r\n0 1 3\r\n4 2 5\r\n7 8 6",
    "puzzle2x2-unsolvable1.txt": "2\n 2  1 \n 3  0 \n",
    "puzzle07.txt": "3\n1 2 3\n0 7 6\n5 4 8\n\n",
}


def _source(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    for name, text in {**FILES, **(extra or {})}.items():
        (folder / name).write_bytes(text.encode())
    return folder


@pytest.mark.parametrize("name, claim", [
    ("puzzle3x3-20.txt", (3, 20, False)), ("puzzle20.txt", (None, 20, False)),
    ("puzzle4x4-unsolvable.txt", (4, None, True)), ("puzzle2x2-unsolvable3.txt", (2, None, True)),
    ("puzzle4x4-hard1.txt", None), ("input1.txt", None), ("puzzle3x4-20.txt", None)])
def test_name_claims(name: str, claim: tuple | None) -> None:
    found = name_claim(name)
    assert (found and (found.n, found.moves, found.unsolvable)) == claim


def test_import_certifies_and_keeps_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    code, stdout, err = grade(capsys, "testcases", "import", _source(tmp_path), "--out", out)
    assert code == 0, stdout + err
    assert "4 counts stated by file names or --expect, 4 agree, 0 disagree" in stdout
    cases = {c.id: c for c in load_testset(out).cases}
    assert {k: (c.solvable, c.optimal_moves) for k, c in cases.items()} == {
        "puzzle07": (True, 7), "puzzle2x2-unsolvable1": (False, None), "puzzle3x3-01": (True, 1),
        "puzzle3x3-04": (True, 4)}
    assert cases["puzzle3x3-04"].input_path.read_bytes() == FILES["puzzle3x3-04.txt"].encode()
    assert grade(capsys, "testcases", "validate", out)[0] == 0


def test_disagreement_is_reported_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _source(tmp_path, {"puzzle3x3-05.txt": "3\n1 2 3\n4 5 6\n0 7 8\n", "notes.txt": "to do\n"})
    out = tmp_path / "set"
    code, stdout, err = grade(capsys, "testcases", "import", source, "--out", out)
    assert code == 8
    problems = [line for line in stdout.splitlines() if line.startswith("problem: ")]
    assert problems == [
        f"problem: {source}/notes.txt:1: expected the board size N (an integer), found 'to' "
        "(not a puzzle file; narrow --pattern to skip it)",
        f"problem: {source}/puzzle3x3-05.txt: the file name says 5 moves, the reference solver finds 2 moves"]
    assert "5 counts stated by file names or --expect, 4 agree, 1 disagree" in stdout
    assert "nothing written" in err and not out.exists()
    code, stdout, _ = grade(capsys, "testcases", "import", source, "--out", out, "--skip-bad")
    assert code == 0
    assert sorted(c.id for c in load_testset(out).cases) == ["puzzle07", "puzzle2x2-unsolvable1", "puzzle3x3-01",
                                                              "puzzle3x3-04"]


def test_expect_and_duplicates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _source(tmp_path, {"hard.txt": "3\n8 6 7\n2 5 4\n3 0 1\n", "copy.txt": "3\n1 2 3\n4 5 6\n7 0 8\n"})
    out = tmp_path / "set"
    code, stdout, _ = grade(capsys, "testcases", "import", source, "--out", out, "--expect", "hard.txt=31")
    assert code == 0
    assert "hard.txt: 3x3, 31 moves" in stdout and "agrees with the --expect" in stdout
    assert "copy.txt: 3x3, 1 moves" in stdout and "left out: the same board as puzzle3x3-01.txt" not in stdout
    assert "puzzle3x3-01.txt: 3x3, 1 moves" in stdout and "left out: the same board as copy.txt" in stdout
    code, stdout, _ = grade(capsys, "testcases", "import", source, "--out", tmp_path / "x", "--expect", "hard.txt=30")
    assert code == 8 and "the --expect says 30 moves, the reference solver finds 31 moves" in stdout
    code, _, err = grade(capsys, "testcases", "import", source, "--out", tmp_path / "y", "--expect", "hard.txt")
    assert code == 2 and "expected NAME=COUNT" in err


def test_append_to_an_existing_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tiny_copy(tmp_path)
    code, stdout, err = grade(capsys, "testcases", "import", _source(tmp_path), "--out", root, "--append",
                              "--prefix", "course-", "--tag", "course", "--visibility", "hidden")
    assert code == 0, stdout + err
    testset = load_testset(root)
    assert [c.id for c in testset.cases][:3] == ["one-move", "unsolvable", "hardest"]
    added = testset.cases[3:]
    assert all(c.id.startswith("course-") and "course" in c.tags and c.visibility == "hidden" for c in added)
    # puzzle3x3-01 and the 2x2 hold the same boards as the set's one-move and unsolvable cases: left out
    assert [c.id for c in added] == ["course-puzzle07", "course-puzzle3x3-04"]
    assert grade(capsys, "testcases", "validate", root)[0] == 0


def test_princeton_names_are_all_reproduced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every count in the Princeton file names, except the two that take minutes (78 and 80 moves)."""
    princeton = shared_data("external-data", "princeton")
    source = tmp_path / "princeton"
    source.mkdir()
    for path in princeton.glob("puzzle*.txt"):
        if path.name not in ("puzzle4x4-78.txt", "puzzle4x4-80.txt"):
            shutil.copyfile(path, source / path.name)
    code, stdout, err = grade(capsys, "testcases", "import", source, "--out", tmp_path / "set", "-q",
                              "--expect", "puzzle4x4-hard1.txt=38", "--expect", "puzzle4x4-hard2.txt=47")
    assert code == 0, stdout + err
    assert "150 counts stated by file names or --expect, 150 agree, 0 disagree; 2 duplicate board(s)" in stdout
