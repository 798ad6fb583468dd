"""Checks across the whole class, before anything is built: a setup that cannot work is refused, not graded.

A library the assignment does not provide turns every student who imports it into a compile error, each one
reading "package edu.princeton.cs.algs4 does not exist": a class of zeros for the TA's mistake. When most Java
submissions (at least two) import Princeton's algs4 and the assignment names no jar that holds it, grading is
refused with the fix; one student's import alone stays that student's compile error.

Submissions are untrusted: their folders are walked without following links, and only a bounded number of
bytes of a bounded number of ``.java`` files is read.
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

from grader.errors import SetupRefused
from grader.intake.discovery import Submission
from grader.intake.java.algs4 import PACKAGE, library_names
from grader.intake.java.java_text import blank_comments
from grader.testsets.assignment import Assignment

MAX_FILES = 200
MAX_ENTRIES = 5_000
"""A submission's folder is walked through at most this many entries (a hostile one may hold millions)."""
MAX_BYTES = 256_000
_USES_ALGS4 = re.compile(r"\bedu\s*\.\s*princeton\s*\.\s*cs\s*\.\s*algs4\b")
ALGS4_JAR_URL = "https://algs4.cs.princeton.edu/code/algs4.jar"


@dataclass(frozen=True)
class LibraryUse:
    """A submission that uses the library: its id and the first file (relative) that does."""

    submission: str
    file: str


def require_libraries(submissions: list[Submission], assignment: Assignment) -> None:
    """Refuse (:class:`SetupRefused`) when most Java submissions use algs4 and the assignment does not provide it."""
    if assignment.language not in ("auto", "java") or assignment.command is not None or _provides_algs4(assignment):
        return
    java, users = 0, []
    for submission in submissions:
        if submission.root is None:
            continue
        found, any_java = _first_algs4_use(submission.root)
        java += any_java
        if found is not None:
            users.append(LibraryUse(submission.id, found))
    if len(users) < 2 or 2 * len(users) < java:
        return
    examples = ", ".join(f"{use.submission} ({use.file})" for use in users[:3])
    raise SetupRefused(
        f"{len(users)} of {java} Java submissions import {PACKAGE} (e.g. {examples}), but {assignment.source} "
        f"provides no algs4 library, so every one of them would be a compile error. Add the jar to the "
        f"assignment: [java.algs4] packaged = [\"$ALGS4_JAR\"] (an environment variable, an absolute path, or a "
        f"path beside assignment.toml; the jar is {ALGS4_JAR_URL}), then grade again")


def _provides_algs4(assignment: Assignment) -> bool:
    if assignment.java.algs4.editions():
        return True
    for item in assignment.java.classpath:
        try:
            if library_names("packaged", item):
                return True
        except (OSError, zipfile.BadZipFile):
            continue  # the build names an unreadable jar itself
    return False


def _first_algs4_use(root: Path) -> tuple[str | None, bool]:
    """The first ``.java`` file under ``root`` that names the algs4 package, and whether there is any Java."""
    seen = entries = 0
    any_java = False
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        entries += len(dirs) + len(files)
        if entries > MAX_ENTRIES:
            return None, any_java
        for name in sorted(files):
            if not name.endswith(".java"):
                continue
            any_java = True
            seen += 1
            if seen > MAX_FILES:
                return None, any_java
            text = _read_bounded(Path(folder) / name)
            if text is not None and _USES_ALGS4.search(blank_comments(text)):
                return (Path(folder) / name).relative_to(root).as_posix(), True
    return None, any_java


def _read_bounded(path: Path) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read(MAX_BYTES).decode("utf-8", "replace")
