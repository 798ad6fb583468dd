"""Find the submissions in a folder: each immediate subfolder, or ``.zip`` file, is one.

A submission is named by its folder (or zip file stem), which is the student id; a folder
holding nothing but one zip (an LMS download) is that zip. Zips
are extracted into a staging folder by :mod:`grader.intake.zips` (no path traversal, no
links, capped in count and size); a zip that cannot be extracted, however it is broken,
is that student's ``CE`` with a message. A folder or zip holding only one folder (plus
``__MACOSX`` litter) is unwrapped: the code is what is inside it (but a Python package
folder, such as ``solver/``, or a project's ``src/`` is part of the code's layout).

The submissions folder and its immediate entries are the TA's (a TA may link
``submissions/alice`` to a clone); nothing below an entry is followed: a lone child that
is a link is not unwrapped or extracted, and the build's copy
(:mod:`grader.intake.safe_copy`) leaves it out with a note naming it.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from grader.errors import SubmissionsError
from grader.intake import zips

MAX_ZIP_ENTRIES = zips.MAX_ZIP_ENTRIES
MAX_ZIP_BYTES = zips.MAX_ZIP_BYTES
IGNORED = frozenset({"__MACOSX", ".DS_Store", "Thumbs.db", ".git", ".idea", ".vscode", "__pycache__"})


@dataclass(frozen=True)
class Submission:
    """One student's submission: its id and the folder holding its code (``None`` if unusable)."""

    id: str
    origin: Path
    root: Path | None
    problem: str | None = None
    """Why ``root`` is ``None``: the student's CE, or with ``fault`` the grader's own failure (JE)."""
    fault: bool = False
    left_out: tuple[str, ...] = ()
    """Entries of a zip left out (symbolic links), each a sentence naming it, for the feedback."""


def discover(submissions_dir: Path, staging: Path) -> list[Submission]:
    """The submissions in ``submissions_dir``, sorted by id; zips are extracted under ``staging``."""
    require_folder(submissions_dir)
    try:
        entries = sorted(submissions_dir.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        raise SubmissionsError(f"{submissions_dir}: cannot list: {exc.strerror or exc}") from None
    found: dict[str, Submission] = {}
    for entry in entries:
        if entry.name.startswith(".") or entry.name in IGNORED:
            continue
        if entry.is_dir():
            try:
                root = unwrap(entry)
                inner = _lone_zip(root)
            except OSError as exc:  # one unreadable folder is that student's result, not a stopped batch
                sid = printable_id(entry.name)
                found.setdefault(sid, Submission(sid, entry, None, f"cannot read {entry}: {exc.strerror or exc}"))
                continue
            # An LMS download: the student's folder holds just the archive they uploaded.
            submission = (Submission(entry.name, entry, root) if inner is None
                          else dataclasses.replace(_from_zip(inner, staging / "zips" / entry.name), id=entry.name))
        elif entry.suffix.lower() == ".zip" and entry.is_file():
            submission = _from_zip(entry, staging / "zips" / entry.stem)
        else:
            continue
        submission = dataclasses.replace(submission, id=printable_id(submission.id))
        if submission.id in found:
            continue  # a folder and a zip with the same id: the folder (first by name) is graded
        found[submission.id] = submission
    return [found[key] for key in sorted(found)]


def printable_id(name: str) -> str:
    """A folder or file name as a submission id: bytes that are not UTF-8 (which Python keeps as
    lone surrogates, and no report can write) shown as ``\\xNN``.

    >>> printable_id("bad\\udcffname"), printable_id("çağrı")
    ('bad\\\\xffname', 'çağrı')
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def require_folder(submissions_dir: Path) -> None:
    """Fail early, before any work, when the submissions folder is not there."""
    if not submissions_dir.is_dir():
        found = "a file" if submissions_dir.exists() else "nothing"
        raise SubmissionsError(f"{submissions_dir}: expected a folder of submissions, found {found}")


def unwrap(folder: Path) -> Path:
    """Descend through folders that hold nothing but one folder (a zip's top-level directory)."""
    while True:
        children = [c for c in folder.iterdir() if c.name not in IGNORED and not c.name.startswith(".")]
        if len(children) == 1 and _real_dir(children[0]) and not _is_code_folder(children[0]):
            folder = children[0]
        else:
            return folder


def _lone_zip(folder: Path) -> Path | None:
    children = [c for c in folder.iterdir() if c.name not in IGNORED and not c.name.startswith(".")]
    if len(children) == 1 and _real_file(children[0]) and children[0].suffix.lower() == ".zip":
        return children[0]
    return None


def _real_dir(path: Path) -> bool:
    return stat.S_ISDIR(path.lstat().st_mode)


def _real_file(path: Path) -> bool:
    return stat.S_ISREG(path.lstat().st_mode)


def _is_code_folder(folder: Path) -> bool:
    """A folder that is part of the code's layout: a Python package, or a project's ``src``."""
    return folder.name == "src" or any(_real_file(folder / name) for name in ("__init__.py", "__main__.py")
                                       if os.path.lexists(folder / name))


def _from_zip(path: Path, target: Path) -> Submission:
    """One zip as a submission; a zip that cannot be extracted is that student's CE, never a stopped class."""
    try:
        left_out = zips.extract_zip(path, target)
    except zips.ZipProblem as exc:
        return Submission(path.stem, path, None, f"cannot extract {path.name}: {exc}")
    except zips.StagingError as exc:
        return Submission(path.stem, path, None, f"cannot extract {path.name}: {exc}", fault=True)
    try:
        return Submission(path.stem, path, unwrap(target), left_out=left_out)
    except OSError as exc:
        return Submission(path.stem, path, None, f"cannot read {path.name} once extracted: {exc.strerror or exc}",
                          fault=True)


extract_zip = zips.extract_zip
