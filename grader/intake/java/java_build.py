"""Java builds: every ``.java`` file (plus the assignment's driver sources, placed in the student's package by
:mod:`grader.intake.java.driver`) compiled with ``javac`` into a classes folder, against the algs4 edition the
sources use (:mod:`grader.intake.java.algs4`, :mod:`grader.intake.java.java_compile`); the main class is found
from the sources (:mod:`grader.intake.java.mains`), inside a ``package`` too; runs get ``-Xmx`` (an
address-space limit stops the JVM from starting).

Each source is read once, with one time cap for the whole build (a
:class:`~grader.intake.java.java_source.SourceReader`). What javac wrote was written by the submission's uid:
it is copied out without following anything, and the run's classpath comes from the assignment, never from
the bundle.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from grader.intake import safe_copy
from grader.intake.build_record import Build
from grader.intake.build_steps import (
    RESERVED_NAMES,
    build_limits,
    build_log,
    copy_into,
    expand,
    memory,
    run_template,
    tool,
)
from grader.intake.java import algs4, driver, java_compile
from grader.intake.java.java_source import SourceReader
from grader.intake.java.mains import (
    MAX_PARSED_BYTES,
    MainClass,
    choose_main,
    java_main_classes,
    java_sources,
)
from grader.intake.timecap import COPY_SECONDS, StudentFault, deadline_after
from grader.judging.verdicts import Verdict
from grader.sandbox import runner
from grader.testsets.assignment import Assignment

JAVAC_HEAP_MB = 768
JAVAC_JVM = (f"-J-Xmx{JAVAC_HEAP_MB}m", "-J-XX:+IgnoreUnrecognizedVMOptions", "-J-XX:TieredStopAtLevel=1",
             "-J-XX:+UseSerialGC")
"""javac's own JVM options. A compile is a short run of the JVM: its optimising compiler's (C2) threads cost more
than they ever return, so javac runs on the quick compiler (C1) alone, with the serial collector. Measured against
plain ``javac`` (``bench/javac_flags.py``): 2 student files, about 40 % less CPU; 40 files of 2,400 lines, over
60 % less. A JVM without one of the options ignores it. The students' own runs keep the default compilers."""


@dataclass(frozen=True)
class _Plan:
    """What is compiled and run: the toolchain, the files, the libraries and the main class chosen."""

    javac: str
    java: str
    classpath: list[str]
    files: list[Path]
    skipped: list[Path]
    libraries: dict[str, algs4.Library]
    drivers: list[Path]
    candidates: list[MainClass]
    main_class: str | None
    read: SourceReader

    def left_out(self, bundle: Path) -> str:
        return f"; left out {', '.join(str(p.relative_to(bundle)) for p in self.skipped)}" if self.skipped else ""

    def sources(self, bundle: Path) -> list[str]:
        return [str(p.relative_to(bundle)) for p in self.files + self.drivers]


def build_java(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    plan = _plan(bundle, assignment)
    if isinstance(plan, Build):
        return plan
    main_class = plan.main_class
    if main_class is None:
        large = [str(p.relative_to(bundle)) for p in plan.files if p.stat().st_size > MAX_PARSED_BYTES]
        unread = f" (not searched, over {MAX_PARSED_BYTES:,} bytes: {', '.join(large)})" if large else ""
        return Build("java", None, failure=Verdict.CE,
                     message=f"no class with 'public static void main(String[] args)' among {len(plan.files)} "
                             f".java files{plan.left_out(bundle)}{unread}")
    compiled = _compile(plan, bundle, assignment, main_class)
    log, library = compiled.log, compiled.library
    if not compiled.ok:
        return Build("java", None, entry=main_class, failure=Verdict(compiled.verdict), message=compiled.message,
                     log=log, library=library)
    classes = workdir / "classes"
    classes.mkdir()
    refused = _collect_classes(bundle / compiled.build_dir, classes, main_class, assignment, compiled.build_dir)
    if refused is not None:
        return Build("java", None, entry=main_class, failure=refused.failure, message=refused.message, log=log)
    run_cp = _copy_run_classpath(plan, assignment, compiled.run_classpath, bundle, classes)
    default_run = run_template(assignment, [plan.java, "-Xmx{heap_mb}m", "-Xss8m", "-XX:+UseSerialGC",
                                            "-cp", "{classpath}", "{main_class}"])
    run_argv = expand(tuple(assignment.java.run or default_run),
                      {**memory(assignment), "main_class": main_class, "classpath": run_cp, "build_dir": "."}, {})
    chosen = next((c for c in plan.candidates if c.name == main_class), None)
    hint = driver.empty_main_hint(chosen.name, str(chosen.path.relative_to(bundle))) \
        if chosen is not None and chosen.empty and not chosen.driver else ""
    with_library = f"; {library}" if library else ""
    return Build("java", classes, run_argv, jvm=True, entry=main_class,
                 message=f"compiled {len(plan.sources(bundle))} files; main class {main_class}"
                         f"{' (its main is empty)' if hint else ''}{with_library}{plan.left_out(bundle)}",
                 log=log, library=library, run_hint=hint)


def _plan(bundle: Path, assignment: Assignment) -> _Plan | Build:
    """The files, libraries, drivers and main class; a JE ``Build`` for a missing JDK or an unreadable jar."""
    javac, java = tool("javac"), tool("java")
    if javac is None or java is None:
        return Build("java", None, failure=Verdict.JE,
                     message="the grading machine has no Java toolchain (javac/java not found): install a JDK 11+")
    extras = bundle / ".grader"
    extras.mkdir()
    classpath = [str(copy_into(item, extras).relative_to(bundle)) for item in assignment.java.classpath]
    read = SourceReader()  # each source read once, all within one time cap
    files, skipped = java_sources(bundle, extras, read)
    try:
        libraries = {name: algs4.load_library(name, jars) for name, jars in assignment.java.algs4.editions().items()}
    except algs4.LibraryUnreadable as exc:
        return Build("java", None, failure=Verdict.JE, message=f"[java.algs4] in {assignment.source}: cannot read "
                                                                f"a library jar: {exc}")
    # Drivers go into the package of the student classes they use (grader.intake.java.driver).
    unnamed = libraries["unnamed"].names if "unnamed" in libraries else driver.JDK_OR_ALGS4_HINTS
    installed = driver.install(assignment.java.sources, extras, files, unnamed, read)
    replaced = {path for each in installed for path in each.replaces}
    files, skipped = [p for p in files if p not in replaced], skipped + sorted(replaced)
    drivers = [each.path for each in installed]
    candidates = java_main_classes(files, drivers, read)
    main_class = choose_main(candidates, assignment)
    # The assignment's driver sources are compiled in only when a driver runs the submission:
    # a student's own main need not match the API the driver expects.
    with_drivers = any(c.driver and c.name == main_class for c in candidates) or bool(assignment.java.main_class)
    return _Plan(javac, java, classpath, files, skipped, libraries, drivers if with_drivers else [], candidates,
                 main_class, read)


def _compile(plan: _Plan, bundle: Path, assignment: Assignment, main_class: str) -> java_compile.JavacResult:
    values = {**memory(assignment), "main_class": main_class}
    default_build = (plan.javac, *JAVAC_JVM, "-encoding", "UTF-8", "-nowarn", "-d", "{build_dir}",
                     "-cp", "{classpath}", "{sources}")
    sources = plan.sources(bundle)

    def compile_once(library_jars: list[Path], build_dir: str) -> tuple[bool, str, bool]:
        compile_cp = ":".join(plan.classpath + [str(p.relative_to(bundle)) for p in library_jars]) or "."
        argv = expand(assignment.java.build or default_build,
                      {**values, "build_dir": build_dir, "classpath": compile_cp}, {"sources": sources})
        outcome = runner.run_command(argv, bundle, build_limits(assignment, jvm=True), keep=(build_dir,))
        return not outcome.timed_out and outcome.exit_code == 0, build_log(outcome), outcome.timed_out

    return java_compile.compile_submission(plan.files, plan.drivers, bundle, plan.libraries, compile_once, plan.read)


def _collect_classes(out: Path, classes: Path, main_class: str, assignment: Assignment, build_dir: str) -> Build | None:
    """Copy what javac wrote into ``classes``; the CE ``Build`` when the main class is missing or a copy refused."""
    class_file = PurePosixPath(*main_class.split(".")).with_suffix(".class")
    if not safe_copy.is_regular(out, class_file) and not assignment.java.main_class:
        return Build("java", None, failure=Verdict.CE,
                     message=f"javac produced no {main_class} class (is the file name the class name?)")
    # classes-out was written by processes of the submission's uid (javac, a build command):
    # copied without following anything, and the classpath comes from the assignment, not the bundle.
    try:
        safe_copy.copy_tree(out, classes, into_existing=True, step="copying the compiled classes",
                            skip=lambda rel, is_dir: len(rel.parts) == 1 and rel.name in RESERVED_NAMES,
                            deadline=deadline_after(COPY_SECONDS), seconds=COPY_SECONDS)
    except StudentFault as exc:
        return Build("java", None, failure=exc.verdict,
                     message=f"the compiled classes cannot be used: {build_dir}/{exc}")
    return None


def _copy_run_classpath(plan: _Plan, assignment: Assignment, run_jars: tuple[Path, ...], bundle: Path,
                        classes: Path) -> str:
    """Copy the run's classpath beside the classes, from the assignment's own files; the ``-cp`` value."""
    originals = dict(zip(plan.classpath, assignment.java.classpath))
    originals.update(_library_originals(plan.libraries, bundle, run_jars))
    run_items = plan.classpath + [str(p.relative_to(bundle)) for p in run_jars]
    for item in run_items:
        target = classes / item
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if originals[item].is_dir() else shutil.copy2)(originals[item], target)
    return ":".join(["."] + run_items)


def _library_originals(libraries: Mapping[str, algs4.Library], bundle: Path,
                       run_jars: tuple[Path, ...]) -> dict[str, Path]:
    """The assignment's own jar behind each library copy a compile ran with (see :func:`algs4.materialise`):
    the run's classpath is copied from those, never from the bundle a build step could have changed."""
    by_name = {f"{flavour}-{index}-{jar.name}": jar
               for flavour, library in libraries.items() for index, jar in enumerate(library.jars)}
    return {str(jar.relative_to(bundle)): by_name[jar.name] for jar in run_jars}
