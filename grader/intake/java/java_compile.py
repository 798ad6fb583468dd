"""Compiling a Java submission: javac once per planned algs4 edition, and whose fault a failure is.

:func:`compile_submission` ties :mod:`grader.intake.java.algs4` (which library set to compile with, and when to try
the next) to :mod:`grader.intake.java.driver` (a failure in the assignment's driver is the student's ``CE`` only when
their classes lack what it calls, else a ``JE``). The javac run itself is the caller's ``compile_once``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from grader.intake.java import algs4, driver
from grader.intake.java.java_source import Read, SourceReader


@dataclass(frozen=True)
class JavacResult:
    """The compile: ``verdict`` (``"CE"`` or ``"JE"``) and ``message`` when it failed; the classes folder
    (``build_dir``) and the library jars to run with when it worked."""

    ok: bool
    log: str
    library: str | None
    build_dir: str = "classes-out"
    run_classpath: tuple[Path, ...] = ()
    verdict: str | None = None
    message: str = ""


def compile_submission(sources: Sequence[Path], drivers: Sequence[Path], bundle: Path,
                       libraries: Mapping[str, algs4.Library], compile_once: algs4.CompileOnce,
                       read: Read | None = None) -> JavacResult:
    """Compile ``sources`` (the student's) with ``drivers`` (the assignment's, compiled in) inside ``bundle``.

    ``compile_once(library jars, build folder)`` runs javac once. Library copies go to ``bundle/.grader/algs4``.
    ``read`` reads a source (the build's :class:`~grader.intake.java.java_source.SourceReader`).
    """
    read = read or SourceReader()
    usage = algs4.scan([read(path) for path in [*sources, *drivers]],
                       libraries["unnamed"].names if "unnamed" in libraries else frozenset())
    compiled = algs4.compile_with_editions(algs4.plan(usage, libraries), libraries, bundle / ".grader" / "algs4",
                                           compile_once)
    library = compiled.describe(libraries)
    log = "".join(f"[algs4] {line}\n" for line in compiled.tried) * (len(compiled.tried) > 1) + compiled.log
    if compiled.ok:
        return JavacResult(True, log, library, compiled.build_dir, compiled.run_classpath)
    if compiled.timed_out:
        return JavacResult(False, log, library, verdict="CE", message=f"javac timed out:\n{first_errors(compiled.log)}")
    diagnosis = driver.diagnose(compiled.log, [str(p.relative_to(bundle)) for p in drivers],
                                {t.name for t in driver.declared_types(sources, read)},
                                set().union(*(lib.names for lib in libraries.values())))
    if diagnosis is not None:
        return JavacResult(False, log, library, verdict=diagnosis.verdict, message=diagnosis.message)
    tried = f"\n(compiled against {'; then '.join(compiled.tried)})" if len(compiled.tried) > 1 else ""
    return JavacResult(False, log, library, verdict="CE",
                       message=f"javac failed ({count_errors(compiled.log)}):\n{first_errors(compiled.log)}{tried}")


def count_errors(log: str) -> str:
    match = re.search(r"^(\d+) errors?$", log, re.M)
    return f"{match.group(1)} error{'s' if match.group(1) != '1' else ''}" if match else "see the log"


def first_errors(log: str, lines: int = 8) -> str:
    kept = [line for line in log.splitlines() if line.strip() and not line.startswith("Picked up")]
    return "\n".join(kept[:lines])
