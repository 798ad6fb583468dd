"""Languages: turn a submission's folder into something runnable, once per submission.

This module copies the submission, detects its language and hands it to that language's build:

- Java (:mod:`grader.intake.java.java_build`): ``javac`` over the sources and the assignment's
  drivers, against the algs4 edition they use; the main class found from the sources.
- Python (:mod:`grader.intake.python_build`): a ``solver`` package or a main file, syntax-checked
  by the assignment's interpreter in the sandbox.
- Any command from ``[command]`` in the assignment (:mod:`grader.intake.command_build`).

The result is a :class:`~grader.intake.build_record.Build`: a bundle folder copied into each run's fresh folder, and
the run argv with ``{input}``/``{output}`` left for the case. A student's fault is a
``CE``; a missing toolchain is a ``JE`` naming what to install; neither raises.

Every copy of a submission's files, into the build folder and out of what javac (or a
build command) wrote, goes through :mod:`grader.intake.safe_copy`: a link or a special
file in a submission is a ``CE`` naming it, and nothing below a submission's folder is
ever followed. The names the grader uses in a build or run folder
(:data:`RESERVED_NAMES`) are left out of a student's copy, so they never collide.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from grader.intake import safe_copy
from grader.intake.build_record import Build
from grader.intake.build_steps import (
    BUILD_LOG_BYTES,
    RESERVED_NAMES,
    RUN_NAMES,
    copy_into,
)
from grader.intake.command_build import build_command
from grader.intake.java.java_build import JAVAC_HEAP_MB, JAVAC_JVM, build_java
from grader.intake.java.mains import (
    MAX_PARSED_BYTES,
    choose_main,
    code_files,
    java_main_classes,
    java_sources,
)
from grader.intake.python_build import build_python, python_entry
from grader.intake.timecap import COPY_SECONDS, StudentFault, deadline_after
from grader.judging.verdicts import Verdict
from grader.model.journal import Language
from grader.testsets.assignment import Assignment

__all__ = [
    "BUILD_LOG_BYTES",
    "IGNORED_NAMES",
    "JAVAC_HEAP_MB",
    "JAVAC_JVM",
    "MAX_PARSED_BYTES",
    "RESERVED_NAMES",
    "RUN_NAMES",
    "Build",
    "build",
    "choose_main",
    "detect_language",
    "java_main_classes",
    "java_sources",
    "python_entry",
    "skip_in_submission",
]

MAX_SUBMISSION_BYTES = 50_000_000
MAX_SUBMISSION_FILES = 5_000
"""A submission larger than these (a virtualenv, a data set...) is refused instead of copied into every run."""
IGNORED_NAMES = frozenset({"__MACOSX", ".git"})
MAX_LISTED_LINKS = 20
"""Links left out that a build's result names one by one; the rest are counted."""
BUILDERS: dict[str, Callable[[Path, Path, Assignment], Build]] = {
    "java": build_java, "python": build_python, "command": build_command}
"""Each language's build: ``(bundle, workdir, assignment) -> Build``."""


def detect_language(source: Path, assignment: Assignment) -> Language | None:
    if assignment.language != "auto":
        return assignment.language
    if code_files(source, "*.java"):
        return "java"
    if code_files(source, "*.py"):
        return "python"
    if assignment.command is not None:
        return "command"
    return None


def skip_in_submission(rel: PurePosixPath, is_dir: bool) -> bool:
    """What a copy of a submission leaves out: LMS and VCS litter, compiled classes, and reserved names."""
    return (rel.name in IGNORED_NAMES or (not is_dir and rel.name.endswith(".class"))
            or (len(rel.parts) == 1 and rel.name in RESERVED_NAMES))


def build(source: Path, workdir: Path, assignment: Assignment, left_out: tuple[str, ...] = ()) -> Build:
    """Build the submission in ``source`` inside the empty folder ``workdir``.

    A link in the submission (or one a build command leaves) is left out, never followed, and
    named in the result's ``left_out`` beside ``left_out`` given (a zip's link entries); what
    needed it fails on its own (a missing entry file, a class javac cannot find), and a failed
    build's message names the links too.
    """
    started = time.monotonic()
    links = list(left_out)
    built = _build_from(source, workdir, assignment, links)
    links = list(dict.fromkeys(links + list(built.left_out)))
    if len(links) > MAX_LISTED_LINKS:  # named one by one up to a point: results and journal stay small
        links = links[:MAX_LISTED_LINKS] + [f"… and {len(links) - MAX_LISTED_LINKS:,} more links, also left out"]
    message = built.message
    if links and not built.ok:
        message += "\n(left out of the submission: " + "; ".join(links) + ")"
    return dataclasses.replace(built, seconds=time.monotonic() - started, message=message, left_out=tuple(links))


def _build_from(source: Path, workdir: Path, assignment: Assignment, links: list[str]) -> Build:
    bundle = workdir / "bundle"
    try:
        safe_copy.copy_tree(source, bundle, skip=skip_in_submission, max_files=MAX_SUBMISSION_FILES,
                            max_bytes=MAX_SUBMISSION_BYTES, seconds=COPY_SECONDS,
                            deadline=deadline_after(COPY_SECONDS), left_out=links)
    except StudentFault as exc:
        return Build("unknown", None, failure=exc.verdict, message=f"the submission cannot be graded: {exc}")
    language = detect_language(bundle, assignment)
    if language is None:
        found = sorted(p.name for p in bundle.iterdir())[:10]
        return Build("unknown", None, failure=Verdict.CE,
                     message=f"no .java or .py files found (the submission holds: {', '.join(found) or 'nothing'})")
    for extra in assignment.extra_files:
        copy_into(extra, bundle)
    builder = BUILDERS[language]
    try:
        return builder(bundle, workdir, assignment)
    except StudentFault as exc:  # a link javac's output holds, a parse past its time cap...
        return Build(language, None, failure=exc.verdict, message=str(exc))
