"""Is the submissions folder a class? Two ordinary mistakes are refused before anything is built.

- **One level too high.** An LMS's "download all" unzipped into a folder of its own (``wrap/submissions/alice``)
  and ``grade wrap`` would grade the whole class as one student (a compile error, exit 0). When the only
  submission found holds no code of its own but two or more folders or zips that do, grading is refused and
  the folder to grade is named.
- **One submission, not a class.** ``grade alice`` (one student's folder: ``Solver.java`` at its top, or a
  ``solver/`` package) would grade ``solver`` or ``src`` as students, or find nothing. When the folder has code
  at its top, or a code folder, and nothing else in it looks like a student, grading is refused with the
  two commands that do work (the class folder, or ``grade check``).

A class folder may hold a stray file of the TA's (a script, the reference ``solver.py``): that is not refused
while the other entries look like students. Only the TA's top levels are read, with ``lstat`` (no link is
followed), a bounded number of entries each.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from grader.errors import SubmissionsError
from grader.intake import lms_names
from grader.intake.zips import IGNORED_TOP

CODE_SUFFIXES = (".java", ".py")
MAX_LISTED = 500
"""Entries of one folder looked at (a class folder of thousands still has students among its first 500)."""
LAYOUT_NAMES = frozenset({"src", "bin", "out", "build", "target", "lib", "libs", "test", "tests", "resources",
                          "res", "doc", "docs", "data", "input", "inputs", "main", "java", "edu", "com", "org",
                          "solver", "npuzzle", "puzzle", "nbproject", "classes"})
"""Folder names of one project's layout (an IDE's, a Java package root's), never a student's name."""


def require_class_shape(submissions_dir: Path, found: Sequence[tuple[str, Path, Path | None]]) -> None:
    """Refuse (:class:`SubmissionsError`) a folder that is one submission or holds the class one level down.

    ``found`` is each submission discovered: its id, the entry it came from (a folder, a zip, an LMS's loose
    file), and the folder holding its code (``None`` when unusable).
    """
    top = code_entries(submissions_dir)
    if top and all(_layout_folder(origin) for _, origin, _ in found):
        shown = ", ".join(top[:4]) + (" ..." if len(top) > 4 else "")
        raise SubmissionsError(
            f"{submissions_dir}: it looks like one student's submission (it holds {shown} at its top), not a "
            "folder of submissions (one folder or .zip per student). Grade the folder that holds the class's "
            f"submissions (e.g. grade {submissions_dir.parent}); to grade these files, put them in a folder named "
            "after the student inside the class folder; or check one output file with grade check")
    if len(found) != 1:
        return
    _, origin, root = found[0]
    if root is None:
        return
    inner = [] if code_entries(root) else _submission_like(root)
    if len(inner) < 2:
        return
    shown = ", ".join(inner[:4]) + (" ..." if len(inner) > 4 else "")
    holds = f"{submissions_dir}: its only entry, {origin.name}, holds {len(inner)} folders or zips with code ({shown})"
    if origin.is_dir():
        raise SubmissionsError(f"{holds} and no code of its own: it looks like the class folder, one level down. "
                               f"Grade that folder: grade {root}")
    raise SubmissionsError(f"{holds}: it looks like the class's \"download all\" archive. Extract it into a "
                           f"folder and grade that folder (e.g. unzip {origin} -d class && grade class)")


def code_entries(folder: Path) -> list[str]:
    """Code files (not an LMS's loose files, which are students' own) and code folders at ``folder``'s top."""
    found = []
    for entry in _listing(folder):
        if lms_names.parse(entry.name) is not None:
            continue
        mode = _mode(entry)
        if stat.S_ISREG(mode) and entry.suffix in CODE_SUFFIXES:
            found.append(entry.name)
        elif stat.S_ISDIR(mode) and code_folder(entry):
            found.append(entry.name + "/")
    return sorted(found)


def _submission_like(folder: Path) -> list[str]:
    """What in ``folder`` would each be a submission: zips, an LMS's loose files (one per student), and folders
    with code at their top (or one level below, as a zip's own top folder puts it)."""
    found = []
    for entry in _listing(folder):
        mode, named = _mode(entry), lms_names.parse(entry.name)
        if stat.S_ISREG(mode) and named is not None and named.holds_code:  # an LMS's loose files: one per student
            found.append(named.group)
        elif stat.S_ISREG(mode) and entry.suffix.lower() == ".zip":  # noqa: SIM114 (a zip is named, not grouped)
            found.append(entry.name)
        elif stat.S_ISDIR(mode) and not _layout_folder(entry) and (
                code_entries(entry) or any(code_entries(child) for child in _listing(entry)
                                            if stat.S_ISDIR(_mode(child)))):
            found.append(entry.name)
    return sorted(set(found))


def _layout_folder(entry: Path) -> bool:
    """A folder of one project's layout: ``src``, a Java package root, a Python package."""
    return entry.name.lower() in LAYOUT_NAMES or (stat.S_ISDIR(_mode(entry)) and code_folder(entry))


def code_folder(folder: Path) -> bool:
    """A folder that is part of one project's layout: a project's ``src``, or a Python package."""
    return folder.name == "src" or any(stat.S_ISREG(_mode(folder / name)) for name in ("__init__.py", "__main__.py"))


def _listing(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as entries:
            names = []
            for entry in entries:
                if entry.name.startswith(".") or entry.name in IGNORED_TOP:
                    continue
                names.append(entry.name)
                if len(names) >= MAX_LISTED:
                    break
    except OSError:
        return []
    return [folder / name for name in sorted(names)]


def _mode(path: Path) -> int:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return 0
