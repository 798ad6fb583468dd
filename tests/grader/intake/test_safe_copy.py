"""The no-follow copies, reads and writes: no link below a root is ever followed, whatever it points to.

Every "victim" is a file the test itself creates outside the tree; a test passes only if
the victim is neither read into the copy nor written.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from grader.intake import safe_copy
from grader.intake.safe_copy import LinkRefused, SpecialFileRefused, SubmissionFileError, TooLarge
from grader.intake.timecap import HostStepTimeout

SECRET = b"victim: the grader must neither read nor write this\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim" / "secret.txt"
    path.parent.mkdir()
    path.write_bytes(SECRET)
    return path


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink())


def test_copies_files_folders_and_executable_bits(tmp_path: Path) -> None:
    source = tree(tmp_path / "src", {"Main.java": b"class Main {}", "pkg/Util.java": b"x", "run.sh": b"#!/bin/sh\n"})
    (source / "run.sh").chmod(0o755)
    stats = safe_copy.copy_tree(source, tmp_path / "dst")
    assert (tmp_path / "dst" / "pkg" / "Util.java").read_bytes() == b"x"
    assert os.stat(tmp_path / "dst" / "run.sh").st_mode & 0o111
    assert (stats.files, stats.folders, stats.bytes) == (3, 1, len(b"class Main {}x#!/bin/sh\n"))


# Where a student can put a link: every one is refused, by its path inside the submission.
LINKS = {
    "input.txt": "input.txt",              # the write-through attack on the case input
    "output.txt": "output.txt",            # a stale or planted answer
    "src/project/Solver.java": "src/project/Solver.java",
    "classes-out/Main.class": "classes-out/Main.class",  # the read-through attack on compiled classes
    "lib": "lib",                          # a link to a folder
}


@pytest.mark.parametrize("where", sorted(LINKS))
def test_a_link_anywhere_is_refused_and_never_followed(tmp_path: Path, victim: Path, where: str) -> None:
    source = tree(tmp_path / "src", {"Main.java": b"class Main {}", "src/project/Other.java": b"y"})
    link = source / where
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(victim.parent if where == "lib" else victim)
    with pytest.raises(LinkRefused) as refused:
        safe_copy.copy_tree(source, tmp_path / "dst")
    assert str(refused.value).startswith(f"{LINKS[where]}: is a symbolic link")
    assert SECRET not in all_bytes(tmp_path / "dst")
    assert victim.read_bytes() == SECRET


def test_dangling_and_looping_links_are_refused(tmp_path: Path) -> None:
    source = tree(tmp_path / "src", {"a.py": b""})
    (source / "loop").symlink_to("loop")
    with pytest.raises(LinkRefused, match="loop"):
        safe_copy.copy_tree(source, tmp_path / "dst")


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    source = tree(tmp_path / "src", {"a.py": b""})
    os.mkfifo(source / "input.txt")
    started = time.monotonic()
    with pytest.raises(SpecialFileRefused, match=re.escape("input.txt: is a named pipe")):
        safe_copy.copy_tree(source, tmp_path / "dst")
    assert time.monotonic() - started < 5  # opening the FIFO for reading would have blocked for ever


def test_skipped_entries_are_not_even_looked_into(tmp_path: Path, victim: Path) -> None:
    source = tree(tmp_path / "src", {"a.py": b"", ".git/config": b""})
    (source / ".git" / "link").symlink_to(victim)
    safe_copy.copy_tree(source, tmp_path / "dst", skip=lambda rel, is_dir: rel.parts[0] == ".git")
    assert sorted(p.name for p in (tmp_path / "dst").iterdir()) == ["a.py"]


def test_caps_on_files_bytes_and_depth(tmp_path: Path) -> None:
    many = tree(tmp_path / "many", {f"f{i}.py": b"" for i in range(20)})
    with pytest.raises(TooLarge, match="past 10 files"):
        safe_copy.copy_tree(many, tmp_path / "d1", max_files=10)
    big = tree(tmp_path / "big", {"a.bin": b"x" * 5000})
    with pytest.raises(TooLarge, match=re.escape("a.bin")):
        safe_copy.copy_tree(big, tmp_path / "d2", max_bytes=4096)
    deep = tmp_path / "deep"
    (deep / Path(*["d"] * (safe_copy.MAX_DEPTH + 2))).mkdir(parents=True)
    with pytest.raises(TooLarge, match="nested more than"):
        safe_copy.copy_tree(deep, tmp_path / "d3")


def test_a_copy_stops_at_its_deadline(tmp_path: Path) -> None:
    source = tree(tmp_path / "src", {"a.py": b"x"})
    with pytest.raises(HostStepTimeout, match="copying the submission"):
        safe_copy.copy_tree(source, tmp_path / "dst", deadline=time.monotonic() - 1)


def test_into_an_existing_folder_with_reserved_names_left_out(tmp_path: Path) -> None:
    source = tree(tmp_path / "src", {"main.py": b"", "input.txt": b"student's own", ".tmp": b""})
    run = tmp_path / "run"
    run.mkdir()
    safe_copy.copy_tree(source, run, into_existing=True,
                        skip=lambda rel, is_dir: str(rel) in ("input.txt", ".tmp"))
    safe_copy.write_new(run, "input.txt", b"3\n1 2 3\n4 5 6\n7 8 0\n")
    assert (run / "input.txt").read_bytes().startswith(b"3\n")
    assert sorted(p.name for p in run.iterdir()) == ["input.txt", "main.py"]


def test_write_new_never_writes_through_a_link(tmp_path: Path, victim: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "input.txt").symlink_to(victim)
    with pytest.raises(FileExistsError):
        safe_copy.write_new(run, "input.txt", b"overwritten")
    (run / "sub").symlink_to(victim.parent)
    with pytest.raises(SubmissionFileError, match="sub: is a symbolic link"):
        safe_copy.write_new(run, "sub/secret.txt", b"overwritten")
    assert victim.read_bytes() == SECRET
    assert [p.name for p in victim.parent.iterdir()] == ["secret.txt"]


def test_read_regular_reads_files_only(tmp_path: Path, victim: Path) -> None:
    run = tree(tmp_path / "run", {"output.txt": b"0123456789", "out/answer.txt": b"ok"})
    assert safe_copy.read_regular(run, "output.txt", 4) == (b"0123", True)
    assert safe_copy.read_regular(run, "output.txt", 10) == (b"0123456789", False)
    assert safe_copy.read_regular(run, "out/answer.txt", 10) == (b"ok", False)
    (run / "link.txt").symlink_to(victim)
    (run / "dirlink").symlink_to(victim.parent)
    os.mkfifo(run / "fifo.txt")
    for name in ("link.txt", "dirlink/secret.txt", "fifo.txt", "missing.txt", "out"):
        assert safe_copy.read_regular(run, name, 100) == (None, False), name
    assert safe_copy.is_regular(run, "output.txt") and not safe_copy.is_regular(run, "link.txt")


def test_remove_entry_removes_the_link_not_its_target(tmp_path: Path, victim: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "lib").symlink_to(victim.parent)
    safe_copy.remove_entry(run, "lib")
    assert not os.path.lexists(run / "lib") and victim.read_bytes() == SECRET


@pytest.mark.parametrize("python", [(3, 10), (3, 11)], ids=["3.10 (by descriptors)", "3.11+ (shutil.rmtree)"])
def test_remove_entry_removes_a_folder_without_following_links_inside(tmp_path: Path, victim: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     python: tuple[int, int]) -> None:
    # Python 3.10 has no shutil.rmtree(dir_fd=...): the package removes the tree itself there.
    monkeypatch.setattr(safe_copy, "sys", type("Sys", (), {"version_info": python}))
    run = tree(tmp_path / "run", {"out/a.txt": b"a", "out/deep/er/b.txt": b"b"})
    (run / "out" / "deep" / "link").symlink_to(victim.parent)
    (run / "out" / "file-link").symlink_to(victim)
    safe_copy.remove_entry(run, "out")
    assert os.listdir(run) == [] and victim.read_bytes() == SECRET


def test_paths_must_stay_below_the_root(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        safe_copy.write_new(tmp_path, "../escape.txt", b"")
    with pytest.raises(ValueError):
        safe_copy.write_new(tmp_path, "/etc/escape.txt", b"")
