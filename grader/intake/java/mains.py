"""Which class of a Java submission is the program: its sources, every class that declares ``main``, and the
choice among them (the assignment's ``main_class``, the student's preferred non-empty main, or the course's
driver). Sources are read with tree-sitter (:mod:`grader.intake.java.java_source`), within a time cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from grader.intake.java.java_source import JavaSource, parse_java
from grader.intake.timecap import PARSE_SECONDS, deadline_after
from grader.testsets.assignment import Assignment

MAX_PARSED_BYTES = 200_000
"""A .java file larger than this is compiled but not read for ``main`` or imports: tree-sitter's
error recovery takes up to ~5 s per MB of garbage (linear, but the grader's own time), and
real solutions are a few kB to a few tens of kB per file."""


def code_files(root: Path, pattern: str) -> list[Path]:
    """The files under ``root`` matching ``pattern``, in order, without an archiver's or git's folders."""
    return sorted(p for p in root.rglob(pattern)
                  if p.is_file() and not any(part in ("__MACOSX", ".git") for part in p.parts))


@dataclass(frozen=True)
class MainClass:
    """A class that declares ``main``: its qualified name, file, and whether ``main`` does anything."""

    name: str
    path: Path
    empty: bool
    driver: bool = False
    public: bool = True

    @property
    def simple(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def java_sources(bundle: Path, extras: Path) -> tuple[list[Path], list[Path]]:
    """The student's files to compile, and those left out: JUnit tests (no JUnit here), and,
    when the project has a ``src/`` folder, copies elsewhere (backups, ``out/``) that would
    clash as duplicate classes."""
    files = [p for p in code_files(bundle, "*.java") if extras not in p.parents]
    src = bundle / "src"
    in_src = [p for p in files if src in p.parents]
    keep, skipped = [], []
    deadline = deadline_after(PARSE_SECONDS)
    for path in files:
        if (in_src and src not in path.parents) or _read_java(path, deadline).imports_from("org.junit", "junit"):
            skipped.append(path)
        else:
            keep.append(path)
    return keep, skipped


def java_main_classes(files: list[Path], drivers: Sequence[Path] = ()) -> list[MainClass]:
    """Every class that declares a launchable ``main`` (:mod:`grader.intake.java.java_source`), by its
    own name, not its file's; ``drivers`` are the assignment's own.

    Raises :class:`grader.intake.timecap.HostStepTimeout` when reading the sources takes
    longer than :data:`grader.intake.timecap.PARSE_SECONDS`.
    """
    found = []
    deadline = deadline_after(PARSE_SECONDS)
    for path in [*files, *drivers]:
        for main in _read_java(path, deadline).mains:
            found.append(MainClass(main.name, path, main.empty, path in drivers, main.public))
    return found


def _read_java(path: Path, deadline: float) -> JavaSource:
    data = path.read_bytes()
    if len(data) > MAX_PARSED_BYTES or (b"main" not in data and b"junit" not in data):
        return parse_java(b"")  # cannot declare main or import JUnit, or too large to read
    return parse_java(data, deadline)


def choose_main(candidates: list[MainClass], assignment: Assignment) -> str | None:
    """``main_class`` when set; else the student's preferred non-empty main; else the assignment's driver.

    A student class whose ``main`` is empty (Princeton's skeleton) cannot run by itself:
    the driver compiled in from ``[java] sources`` runs it instead.
    """
    wanted = assignment.java.main_class
    if wanted:
        if "." in wanted:
            return wanted
        return next((c.name for c in candidates if c.simple == wanted), wanted)
    students = sorted((c for c in candidates if not c.driver),
                      key=lambda c: (_preference(c, assignment), not c.public, len(c.path.parts), c.name))
    drivers = [c for c in candidates if c.driver]
    if students and not students[0].empty:
        return students[0].name
    if drivers:
        return drivers[0].name
    return students[0].name if students else None


def _preference(candidate: MainClass, assignment: Assignment) -> int:
    names = assignment.java.preferred_mains
    return names.index(candidate.simple) if candidate.simple in names else len(names)
