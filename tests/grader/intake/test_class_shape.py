"""A folder that is one submission, or that holds the class one level down, is refused before any build;
a real class folder (stray files of the TA's included) is graded as before."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from grader.errors import SubmissionsError
from grader.intake.discovery import discover

JAVA = b"public class Solver { public static void main(String[] a) {} }\n"
PY = b"print('Minimum number of moves = 0')\n"


def _student(java: bool = True) -> dict[str, bytes]:
    return {"Solver.java": JAVA, "Board.java": b"class Board {}\n"} if java else {"solver.py": PY}


def _prefixed(prefix: str, files: dict[str, bytes]) -> dict[str, bytes]:
    return {f"{prefix}/{name}": data for name, data in files.items()}


def _class_zip() -> bytes:
    """A "download all" archive: a folder per student."""
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in ("alice", "bob", "carol"):
            for path, data in _student(name != "bob").items():
                archive.writestr(f"{name}/{path}", data)
    return buffer.getvalue()


def _canvas_zip() -> bytes:
    """Canvas's "download all": one flat folder of loose files named by student."""
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("doejane_12345_67890_solver.py", PY)
        archive.writestr("roeric_12346_67891_solver.py", PY)
    return buffer.getvalue()


REFUSED = [
    # grade wrap, where wrap/ holds the unzipped class folder
    ("class one level down", {**_prefixed("submissions/alice", _student()),
                              **_prefixed("submissions/bob", _student(False)),
                              **_prefixed("submissions/carol/carol-project", _student())},
     "looks like the class folder, one level down. Grade that folder: grade {root}/submissions"),
    ("the download-all zip", {"all.zip": _class_zip()}, 'looks like the class\'s "download all" archive'),
    ("Canvas's download-all zip", {"submissions.zip": _canvas_zip()}, '"download all" archive'),
    ("one Java student's files", _student(), "looks like one student's submission (it holds Board.java, Solver.java"),
    ("one Python package", {"solver/__main__.py": PY, "solver/board.py": b"x = 1\n"},
     "looks like one student's submission (it holds solver/ at its top)"),
    ("one IDE project", {"src/Solver.java": JAVA, "out/production/Solver.class": b"\xca\xfe", "README.md": b"hi\n"},
     "(it holds src/ at its top)"),
    ("one Java package tree", {"Main.java": JAVA, "edu/uni/Board.java": b"package edu.uni; class Board {}\n"},
     "(it holds Main.java at its top)"),
]

GRADED = [
    ("a class", {**_prefixed("alice", _student()), **_prefixed("bob", _student(False))}, ["alice", "bob"]),
    ("a class with the TA's stray script", {**_prefixed("alice", _student()), **_prefixed("bob", _student()),
                                             "rename.py": PY, "solver.py": PY}, ["alice", "bob"]),
    ("a class of one", _prefixed("alice", _student()), ["alice"]),
    ("a class of one whose code is one level down", _prefixed("alice/project", _student()), ["alice"]),
    ("an odd student beside others", {**_prefixed("alice/part1", _student()), **_prefixed("alice/part2", _student()),
                                      **_prefixed("bob", _student())}, ["alice", "bob"]),
    ("an LMS's loose files", {"doejane_12345_67890_solver.py": PY, "roeric_12346_67891_solver.py": PY},
     ["doejane_12345", "roeric_12346"]),
]


def _lay_out(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.mark.parametrize("what, files, message", REFUSED, ids=[case[0] for case in REFUSED])
def test_a_folder_that_is_not_a_class_is_refused(tmp_path: Path, what: str, files: dict[str, bytes],
                                                  message: str) -> None:
    root = tmp_path / "given"
    _lay_out(root, files)
    with pytest.raises(SubmissionsError) as raised:
        discover(root, tmp_path / "staging")
    assert message.format(root=root) in str(raised.value)
    assert raised.value.exit_code == 5


@pytest.mark.parametrize("what, files, ids", GRADED, ids=[case[0] for case in GRADED])
def test_a_class_folder_is_graded_as_before(tmp_path: Path, what: str, files: dict[str, bytes],
                                            ids: list[str]) -> None:
    root = tmp_path / "class"
    _lay_out(root, files)
    assert [submission.id for submission in discover(root, tmp_path / "staging")] == ids



@pytest.mark.parametrize("name, student, suffix", [("bob.tar.gz", "bob", ".tar.gz"), ("dave.rar", "dave", ".rar"),
                                                   ("erin.7z", "erin", ".7z"), ("fay.tgz", "fay", ".tgz")])
def test_an_archive_not_read_is_that_students_ce(tmp_path: Path, name: str, student: str, suffix: str) -> None:
    """A student who hands in a .rar is in the grades with a CE that says why, not missing from them."""
    root = tmp_path / "class"
    _lay_out(root, {**_prefixed("alice", _student()), name: b"\x1f\x8b not read"})
    found = {submission.id: submission for submission in discover(root, tmp_path / "staging")}
    assert sorted(found) == ["alice", student]
    assert found[student].root is None and not found[student].fault
    assert f"{name} is a {suffix} archive: only .zip archives and folders are graded" in (found[student].problem or "")


def test_entries_not_graded_are_named(tmp_path: Path) -> None:
    """Files beside the students that are not submissions (no LMS name) are said, so nobody goes missing unseen;
    an LMS's own receipts and the TA's README or roster are not."""
    root = tmp_path / "class"
    _lay_out(root, {**_prefixed("alice", _student()), "essay.docx": b"an essay\n", "erin_solver.py": PY,
                    "README.md": b"the TA's\n", "roster.csv": b"id\n",
                    "Project_jdoe_attempt_2024-03-01-10-20-30.txt": b"receipt\n",
                    "Project_jdoe_attempt_2024-03-01-10-20-30_solver.py": PY})
    with pytest.warns(UserWarning) as caught:
        ids = [submission.id for submission in discover(root, tmp_path / "staging")]
    assert ids == ["Project_jdoe_attempt_2024-03-01-10-20-30", "alice"]
    (warning,) = caught
    assert "2 entries are not a submission and not graded (erin_solver.py, essay.docx)" in str(warning.message)
