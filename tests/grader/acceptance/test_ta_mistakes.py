"""A new TA's ordinary mistakes, each refused (or said) with the fix named; after the fix the class grades right.

Each row: how the TA's command goes wrong, the exit code and the words that name the fix, and the command after
the fix. The class is three copies of a correct CMPE 160 Python student (input.txt in, output.txt out).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.cli import entry
from tests.support import REPO

STUDENT = REPO / "examples" / "submissions" / "AC-python-correct"
CMPE160 = REPO / "testcases" / "cmpe160"
CASE = ["--cases", "2x2-rand-01", "--no-progress", "-j", "2"]


def _lay_out(root: Path) -> dict[str, Path]:
    """The class folder one level down (as an unzipped download often is), and a test set copy to edit."""
    for name in ("alice", "bob", "carol"):
        shutil.copytree(STUDENT, root / "download" / "submissions" / name)
    shutil.copytree(CMPE160, root / "set")
    return {"download": root / "download", "class": root / "download" / "submissions", "set": root / "set",
            "one": root / "download" / "submissions" / "alice", "sets": REPO / "testcases"}


def _set_key(old: str, new: str) -> Callable[[dict[str, Path]], None]:
    def edit(paths: dict[str, Path]) -> None:
        config = paths["set"] / "assignment.toml"
        config.write_text(config.read_text().replace(old, new))
    return edit


def _nothing(paths: dict[str, Path]) -> None:
    return None


MISTAKES = [
    # (what, the mistake's edit, grade's arguments, exit, words, the fixed arguments)
    ("the download's own folder", _nothing, ["{download}", "--testcases", "{set}"], 5,
     "it looks like the class folder, one level down. Grade that folder: grade {class}",
     ["{class}", "--testcases", "{set}"]),
    ("one student's folder", _nothing, ["{one}", "--testcases", "{set}"], 5,
     "it looks like one student's submission (it holds solver/ at its top)", ["{class}", "--testcases", "{set}"]),
    ("an input file the handout does not name", _set_key('input_file = "input.txt"', 'input_file = "puzzle.txt"'),
     ["{class}", "--testcases", "{set}"], 10,
     'says input_file = "puzzle.txt", but no submission names that file, while 3 of 3 name "input.txt"', None),
    ("the folder of test sets", _nothing, ["{class}", "--testcases", "{sets}"], 3,
     "this folder holds the test sets ai-8puzzle, cmpe160, cmpe160-hard, princeton: name one",
     ["{class}", "--testcases", "{set}"]),
    ("the wrong input style", _set_key('io = "files"', 'io = "stdin"'), ["{class}", "--testcases", "{set}"], 11,
     "every one of the 3 submissions scored 0 (cases: RTE 3)", None),
]


@pytest.mark.parametrize("what, mistake, argv, code, words, fixed", MISTAKES, ids=[row[0] for row in MISTAKES])
def test_a_mistake_is_named_with_its_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str,
                                         mistake: Callable[[dict[str, Path]], None], argv: list[str], code: int,
                                         words: str, fixed: list[str] | None) -> None:
    paths = _lay_out(tmp_path)
    mistake(paths)
    out = str(tmp_path / "out")
    got = entry(["run", *[arg.format(**paths) for arg in argv], "--out", out, *CASE])
    err = capsys.readouterr().err
    assert got == code, err
    assert words.format(**paths) in err and "Traceback" not in err
    if code != 11:
        assert not (tmp_path / "out" / "results.json").exists()  # refused before grading
    if fixed is None:  # the mistake is in the test set: undo it
        shutil.rmtree(paths["set"])
        shutil.copytree(CMPE160, paths["set"])
        fixed = ["{class}", "--testcases", "{set}"]
    assert entry(["run", *[arg.format(**paths) for arg in fixed], "--out", str(tmp_path / "fixed"), *CASE]) == 0
    assert "alice" in capsys.readouterr().out


def test_grading_without_testcases_says_which_set_it_uses(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _lay_out(tmp_path)
    monkeypatch.chdir(tmp_path)  # no testcases/ here: the bundled set
    assert entry(["run", str(paths["class"]), "--out", str(tmp_path / "out"), *CASE]) == 0
    err = capsys.readouterr().err
    assert "grade: no --testcases given: grading on the test set in " in err and "cmpe160" in err
