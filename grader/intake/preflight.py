"""Checks across the whole class, before anything is built: a setup that cannot work is refused, not graded.

Two such setups are refused here. A library the assignment does not provide turns every student who imports
it into a compile error, each one reading "package edu.princeton.cs.algs4 does not exist": a class of zeros
for the TA's mistake. When most Java submissions (at least two) import Princeton's algs4 and the assignment
names no jar that holds it, grading is refused with the fix; one student's import alone stays that student's
compile error. And a file name the assignment gives that no student's program opens: with ``io = "files"``,
when no submission names ``input_file`` (or ``output_file``, where the answer is read from it) while most
name one same other file (``"input.txt"``), every run would fail to find its input; the names found are given.

Submissions are untrusted: their folders are walked without following links, and only a bounded number of
bytes of a bounded number of ``.java`` files is read, with the build's Java reader
(:mod:`grader.intake.java.java_source`), within the same time cap per submission.
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from grader.errors import SetupRefused
from grader.intake.discovery import Submission
from grader.intake.java.algs4 import PACKAGE, library_names, packaged_names
from grader.intake.java.java_source import MAX_PARSED_BYTES, read_java
from grader.intake.timecap import PARSE_SECONDS, HostStepTimeout, deadline_after
from grader.testsets.assignment import Assignment

MAX_FILES = 200
MAX_ENTRIES = 5_000
"""A submission's folder is walked through at most this many entries (a hostile one may hold millions)."""
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


CODE_SUFFIXES = (".java", ".py")
_FILE_LITERAL = re.compile(rb"""["']([A-Za-z0-9_./-]{1,80}\.(?:txt|in|out|dat))["']""")
"""A quoted file name in source text (Java, Python): the data files a program opens by name."""


def require_file_names(submissions: list[Submission], assignment: Assignment) -> None:
    """Refuse (:class:`SetupRefused`) a file name no submission opens while most open one same other name."""
    if assignment.io != "files" or assignment.command is not None:
        return
    named, with_code = _file_names(submissions)
    keys = [("input_file", assignment.input_file)]
    if assignment.answer_in_file:
        keys.append(("output_file", assignment.output_file))
    given = {name for _, name in keys}
    for key, name in keys:
        if name in named or with_code < 2:
            continue
        others = [(other, users) for other, users in named.items()
                  if other not in given and len(users) >= 2 and 2 * len(users) >= with_code]
        if not others:
            continue
        # The likeliest first: most users, and a name that says which file it is ("input.txt" for input_file).
        hint = "in" if key == "input_file" else "out"
        others.sort(key=lambda item: (hint not in item[0].lower().replace("input" if hint == "out" else "output", ""),
                                      -len(item[1]), item[0]))
        found = "; ".join(f'{len(users)} of {with_code} name "{other}" (e.g. {", ".join(users[:2])})'
                          for other, users in others[:3])
        raise SetupRefused(
            f'{assignment.source} says {key} = "{name}", but no submission names that file, while {found}: every '
            f'run would fail to open it. Set {key} to the name the handout gives (e.g. {key} = "{others[0][0]}"), '
            "then grade again")


def _file_names(submissions: list[Submission]) -> tuple[dict[str, list[str]], int]:
    """Each quoted data-file name (its last path part) and the submissions naming it; how many have code."""
    named: dict[str, list[str]] = {}
    with_code = 0
    for submission in submissions:
        if submission.root is None:
            continue
        names = _names_in(submission.root)
        if names is None:
            continue
        with_code += 1
        for name in names:
            named.setdefault(name, []).append(submission.id)
    return named, with_code


def _names_in(root: Path) -> Counter[str] | None:
    """The data-file names quoted in a submission's code (None: no code)."""
    names: Counter[str] = Counter()
    seen = False
    for path in _code_files(root, CODE_SUFFIXES):
        seen = True
        for literal in _FILE_LITERAL.findall(_read_bounded(path) or b""):
            names[literal.decode("ascii").rsplit("/", 1)[-1]] += 1
    return names if seen else None


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
    """The first ``.java`` file under ``root`` that names the algs4 package, and whether there is any Java.

    A submission whose files take longer than the reader's time cap counts as found nowhere (its own build
    reports that).
    """
    deadline = deadline_after(PARSE_SECONDS)
    try:
        return _search(root, deadline)
    except HostStepTimeout:
        return None, True


def _search(root: Path, deadline: float) -> tuple[str | None, bool]:
    any_java = False
    for path in _code_files(root, (".java",)):
        any_java = True
        data = _read_bounded(path)
        # Only a file with "algs4" in it (or a Unicode escape, which could spell it) can name the package.
        if data is not None and (b"algs4" in data or b"\\u" in data) and packaged_names(read_java(data, deadline)):
            return path.relative_to(root).as_posix(), True
    return None, any_java


def _code_files(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    """The files under ``root`` ending in ``suffixes``, in order: at most :data:`MAX_FILES` of them, from a walk
    of at most :data:`MAX_ENTRIES` entries that follows no link (a hostile submission may hold millions)."""
    seen = entries = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        entries += len(dirs) + len(files)
        if entries > MAX_ENTRIES:
            return
        for name in sorted(files):
            if name.endswith(suffixes):
                seen += 1
                if seen > MAX_FILES:
                    return
                yield Path(folder) / name


def _read_bounded(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read(MAX_PARSED_BYTES + 1)
