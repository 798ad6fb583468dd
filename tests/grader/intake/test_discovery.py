"""Discovery: folders and zips are submissions; hostile zips are refused without writing outside."""

from __future__ import annotations

import re
import stat
import zipfile
from pathlib import Path

import pytest

from grader.errors import SubmissionsError
from grader.intake.discovery import MAX_ZIP_BYTES, discover, extract_zip


def make_zip(path: Path, entries: dict[str, bytes], symlink: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return path


def test_folders_and_zips_sorted_by_id(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    (subs / "bob").mkdir(parents=True)
    (subs / "bob" / "main.py").write_text("print(1)\n")
    make_zip(subs / "alice.zip", {"alice/Solver.java": b"class Solver {}", "__MACOSX/._Solver.java": b"x"})
    (subs / ".hidden").mkdir()
    (subs / "notes.txt").write_text("not a submission")
    found = discover(subs, tmp_path / "staging")
    assert [s.id for s in found] == ["alice", "bob"]
    alice = found[0]
    assert alice.root is not None and (alice.root / "Solver.java").is_file()  # the wrapper folder is unwrapped
    assert not (tmp_path / "staging" / "zips" / "alice" / "__MACOSX").exists()


def test_python_package_folder_is_not_unwrapped(tmp_path: Path) -> None:
    package = tmp_path / "subs" / "carol" / "solver"
    package.mkdir(parents=True)
    (package / "__main__.py").write_text("")
    [carol] = discover(tmp_path / "subs", tmp_path / "staging")
    assert carol.root == tmp_path / "subs" / "carol"


@pytest.mark.parametrize("entries, symlink, reason", [
    ({"../evil.txt": b"x"}, None, "points outside"),
    ({"/etc/evil.txt": b"x"}, None, "points outside"),
    ({"a/../../evil.txt": b"x"}, None, "points outside"),
    ({"big.bin": b"\0" * (MAX_ZIP_BYTES + 1)}, None, "bytes uncompressed"),
], ids=["dotdot", "absolute", "nested-dotdot", "too-big"])
def test_hostile_zip_is_refused(tmp_path: Path, entries: dict[str, bytes], symlink: str | None, reason: str) -> None:
    archive = make_zip(tmp_path / "evil.zip", entries, symlink)
    with pytest.raises(ValueError, match=reason):
        extract_zip(archive, tmp_path / "out" / "evil")
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "out").exists()


def test_a_link_entry_is_left_out_and_named(tmp_path: Path) -> None:
    # A link in a zip is never created (so never followed), but the rest of the zip is the submission.
    subs = tmp_path / "subs"
    subs.mkdir()
    make_zip(subs / "erin.zip", {"erin/main.py": b"print(1)\n"}, symlink="erin/lib")
    [erin] = discover(subs, tmp_path / "staging")
    assert erin.root is not None and (erin.root / "main.py").is_file()
    assert not (erin.root / "lib").exists() and not (erin.root / "lib").is_symlink()
    assert erin.left_out == ("erin/lib: left out, a symbolic link to '/etc/passwd' (links are never followed: "
                             "hand in the file itself)",)


def test_bad_zip_is_a_submission_with_a_problem(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "dave.zip").write_bytes(b"not a zip")
    [dave] = discover(subs, tmp_path / "staging")
    assert dave.root is None and "cannot extract dave.zip" in (dave.problem or "")


def test_missing_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SubmissionsError, match="expected a folder of submissions, found nothing"):
        discover(tmp_path / "nope", tmp_path / "staging")


def test_folder_holding_only_the_uploaded_zip(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    (subs / "erin_12345").mkdir(parents=True)
    make_zip(subs / "erin_12345" / "project3.zip", {"project3/src/project/Solver.java": b"package project;"})
    [erin] = discover(subs, tmp_path / "staging")
    assert erin.id == "erin_12345" and erin.root is not None
    assert (erin.root / "src" / "project" / "Solver.java").is_file()


def test_zip_entry_named_twice_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "twice.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("main.py", b"print(1)\n")
        with pytest.warns(UserWarning):  # zipfile itself frowns on it
            zipped.writestr("main.py", b"print(2)\n")
    with pytest.raises(ValueError, match=re.escape("'main.py' appears twice")):
        extract_zip(archive, tmp_path / "out")


def test_a_lone_zip_link_is_not_extracted(tmp_path: Path) -> None:
    # The student's folder holds only a link to an archive elsewhere: not the student's upload.
    outside = make_zip(tmp_path / "elsewhere.zip", {"Secret.java": b"class Secret {}"})
    (tmp_path / "subs" / "dave").mkdir(parents=True)
    (tmp_path / "subs" / "dave" / "upload.zip").symlink_to(outside)
    [dave] = discover(tmp_path / "subs", tmp_path / "staging")
    assert dave.root == tmp_path / "subs" / "dave" and not (tmp_path / "staging").exists()
