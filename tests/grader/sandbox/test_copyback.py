"""copy_back on plain folders: only the kept paths, holes and links as they are, never followed,
and nothing at all past the budget."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.sandbox.folders.copyback import ENTRY_BYTES, copy_back

MB = 2**20


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    source, target = tmp_path / "run", tmp_path / "host"
    source.mkdir()
    target.mkdir()
    (target / "main.py").write_text("the grader's copy\n")
    (target / "output.txt").write_text("shipped by the student\n")
    return source, target


def test_only_kept_paths_come_back_and_replace_the_hosts(folders):
    source, target = folders
    (source / "output.txt").write_text("the run's answer\n")
    (source / "main.py").write_text("changed by the run\n")
    (source / "junk").write_bytes(b"x" * 1000)
    assert copy_back(source, target, ["output.txt"], 10 * MB) is None
    assert sorted(p.name for p in target.iterdir()) == ["main.py", "output.txt"]
    assert (target / "main.py").read_text() == "the grader's copy\n"
    assert (target / "output.txt").read_text() == "the run's answer\n"


def test_a_kept_path_the_run_did_not_leave_is_gone(folders):
    source, target = folders
    assert copy_back(source, target, ["output.txt"], MB) is None
    assert not (target / "output.txt").exists()


def test_holes_stay_holes(folders):
    source, target = folders
    with open(source / "output.txt", "wb") as sparse:
        sparse.write(b"start")
        sparse.seek(50 * MB)
        sparse.write(b"end")
    assert copy_back(source, target, ["output.txt"], 2 * ENTRY_BYTES + 8192) is None
    copied = (target / "output.txt").stat()
    assert copied.st_size == 50 * MB + 3 and copied.st_blocks * 512 <= 64 * 1024
    with open(target / "output.txt", "rb") as result:
        assert result.read(5) == b"start" and (result.seek(50 * MB), result.read())[1] == b"end"


def test_hard_links_stay_links_and_symbolic_links_are_never_followed(folders, tmp_path):
    source, target = folders
    secret = tmp_path / "secret.txt"
    secret.write_text("the grader's own file\n")
    out = source / "classes"
    out.mkdir()
    (out / "A.class").write_bytes(b"\xca\xfe" * 1000)
    for n in range(50):
        os.link(out / "A.class", out / f"copy{n}.class")
    os.symlink(secret, out / "link")
    os.symlink(secret.parent, source / "escape")  # a kept path through a link must not be reached
    assert copy_back(source, target, ["classes", "escape/secret.txt"], 60 * ENTRY_BYTES + 8192) is None
    assert (target / "classes" / "copy49.class").stat().st_ino == (target / "classes" / "A.class").stat().st_ino
    assert os.readlink(target / "classes" / "link") == str(secret)
    assert not os.path.lexists(target / "escape")


def test_past_the_budget_nothing_is_kept(folders):
    source, target = folders
    many = source / "out"
    many.mkdir()
    for n in range(100):
        (many / f"f{n}").touch()
    why = copy_back(source, target, ["out", "output.txt"], 50 * ENTRY_BYTES)
    assert why is not None and "none of it was kept" in why
    assert sorted(p.name for p in target.iterdir()) == ["main.py"]


@pytest.mark.parametrize("bad", ["/etc/passwd", "../outside", "a/../../b"])
def test_paths_outside_the_folder_are_ignored(folders, bad):
    source, target = folders
    assert copy_back(source, target, [bad], MB) is None
    assert sorted(p.name for p in target.iterdir()) == ["main.py", "output.txt"]
