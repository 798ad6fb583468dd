"""Languages: turn a submission's folder into something runnable, once per submission.

- Java: every ``.java`` file (plus the assignment's driver sources, placed in the student's
  package by :mod:`grader.intake.java.driver`) compiled with ``javac`` into a classes folder,
  against the algs4 edition the sources use (:mod:`grader.intake.java.algs4`,
  :mod:`grader.intake.java.java_compile`); the main class is found from the sources, inside a
  ``package`` too; runs get ``-Xmx`` (an address-space limit stops the JVM from starting).
- Python: a ``solver`` package (``python -m solver``) or a main file, run with the
  assignment's interpreter and packages (:mod:`grader.intake.python_env`); the entry file
  is compiled by that interpreter in the sandbox (:mod:`grader.intake.syntax_check`; never
  run, never compiled in the grader) so a syntax error is a ``CE`` with its line.
- Any command from ``[command]`` in the assignment.

The result is a :class:`Build`: a bundle folder copied into each run's fresh folder, and
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
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from grader.intake import python_env, safe_copy
from grader.intake.java import algs4, driver, java_compile
from grader.intake.java.mains import MAX_PARSED_BYTES, choose_main, code_files, java_main_classes, java_sources
from grader.intake.syntax_check import check_syntax
from grader.intake.timecap import COPY_SECONDS, StudentFault, deadline_after
from grader.judging.hints import tail
from grader.judging.verdicts import Verdict
from grader.model.journal import Language
from grader.model.results import BuildRecord
from grader.sandbox import runner
from grader.testsets.assignment import Assignment

BUILD_LOG_BYTES = 200_000
MAX_SUBMISSION_BYTES = 50_000_000
MAX_SUBMISSION_FILES = 5_000
"""A submission larger than these (a virtualenv, a data set...) is refused instead of copied into every run."""
JAVAC_HEAP_MB = 768
RUN_NAMES = frozenset({".tmp"})
"""Top-level names the runner makes in a run folder (the run's TMPDIR)."""
RESERVED_NAMES = RUN_NAMES | {".grader"}
"""Top-level names the grader itself uses in a build or run folder (the assignment's Java
drivers and classpath, the run's TMPDIR): a student's entry of the same name is left out."""
IGNORED_NAMES = frozenset({"__MACOSX", ".git"})
MAX_LISTED_LINKS = 20
"""Links left out that a build's result names one by one; the rest are counted."""
# Line-anchored, and ``\s+`` cannot run into the next ``if`` at a line start: linear time.
_PY_MAIN_RE = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]\s*:", re.M)


@dataclass(frozen=True)
class Build:
    """A built submission, or why it could not be built (``failure`` is CE or JE)."""

    language: Language
    bundle: Path | None
    run_argv: tuple[str, ...] = ()
    jvm: bool = False
    readable: tuple[Path, ...] = ()
    entry: str | None = None
    failure: Verdict | None = None
    message: str = ""
    log: str = ""
    seconds: float = 0.0
    library: str | None = None
    """The algs4 edition the submission was compiled against (:mod:`grader.intake.java.algs4`), when configured."""
    run_hint: str = ""
    """Why a run may write nothing (an empty ``main``), added to a ``NO`` verdict's message."""
    left_out: tuple[str, ...] = ()
    """Entries not copied (symbolic links), each a sentence naming it: shown in the feedback."""

    @property
    def ok(self) -> bool:
        return self.failure is None

    def record(self) -> BuildRecord:
        """What results.json and the journal keep of the build (the optional keys only when they apply)."""
        optional: dict[str, Any] = {}
        if self.library is not None:
            optional["algs4"] = self.library
        if self.left_out:
            optional["left_out"] = self.left_out
        return BuildRecord(language=self.language, ok=self.ok, entry=self.entry, verdict=_build_verdict(self.failure),
                           message=self.message, log=self.log, seconds=round(self.seconds, 3), **optional)


def _build_verdict(verdict: Verdict | None) -> Literal[Verdict.CE, Verdict.JE] | None:
    """A build fails as the student's CE or the grader's JE, nothing else (results.json's schema says so)."""
    if verdict is Verdict.CE or verdict is Verdict.JE or verdict is None:
        return verdict
    raise ValueError(f"a build cannot end in {verdict.value}")


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
        _copy_into(extra, bundle)
    builder = {"java": _build_java, "python": _build_python, "command": _build_command}[language]
    try:
        return builder(bundle, workdir, assignment)
    except StudentFault as exc:  # a link javac's output holds, a parse past its time cap...
        return Build(language, None, failure=exc.verdict, message=str(exc))


def _library_originals(libraries: dict, bundle: Path, run_jars: tuple[Path, ...]) -> dict[str, Path]:
    """The assignment's own jar behind each library copy a compile ran with (see :func:`algs4.materialise`):
    the run's classpath is copied from those, never from the bundle a build step could have changed."""
    by_name = {f"{flavour}-{index}-{jar.name}": jar
               for flavour, library in libraries.items() for index, jar in enumerate(library.jars)}
    return {str(jar.relative_to(bundle)): by_name[jar.name] for jar in run_jars}


def _copy_into(path: Path, folder: Path) -> Path:
    """Copy one of the assignment's own files (trusted: its links are followed) over whatever
    the student had under that name (removed first, without following a link)."""
    target = folder / path.name
    safe_copy.remove_entry(folder, path.name)
    if path.is_dir():
        shutil.copytree(path, target, dirs_exist_ok=True)
    else:
        shutil.copy2(path, target)
    return target


def _expand(template: tuple[str, ...], values: dict[str, str], lists: dict[str, list[str]]) -> tuple[str, ...]:
    """Fill ``{name}`` placeholders; an item that is exactly ``{sources}``/``{entry}`` becomes several."""
    out: list[str] = []
    for item in template:
        key = item[1:-1] if item.startswith("{") and item.endswith("}") else None
        if key in lists:
            out.extend(lists[key])
            continue
        filled = item
        for name, value in values.items():
            filled = filled.replace("{" + name + "}", value)
        out.append(filled)
    return tuple(out)


def _run_template(assignment: Assignment, base: list[str]) -> list[str]:
    return base + {"argv": ["{input}"], "board-arg": ["{board}"]}.get(assignment.io, [])


def _tool(name: str) -> str | None:
    """A toolchain program as submissions will see it (the runner's PATH), else the grader's."""
    return shutil.which(name, path=runner.SYSTEM_PATH) or shutil.which(name)


def _memory(assignment: Assignment) -> dict[str, str]:
    return {"memory_mb": str(assignment.limits.memory_mb), "heap_mb": str(assignment.limits.heap_mb)}


def _build_log(outcome: runner.Outcome) -> str:
    return (outcome.stdout + outcome.stderr).decode("utf-8", "replace")


# ---------------------------------------------------------------- Java
def _build_java(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    javac, java = _tool("javac"), _tool("java")
    if javac is None or java is None:
        return Build("java", None, failure=Verdict.JE,
                     message="the grading machine has no Java toolchain (javac/java not found): install a JDK 11+")
    extras = bundle / ".grader"
    extras.mkdir()
    classpath_items = [str(_copy_into(item, extras).relative_to(bundle)) for item in assignment.java.classpath]
    files, skipped = java_sources(bundle, extras)
    try:
        libraries = {name: algs4.load_library(name, jars) for name, jars in assignment.java.algs4.editions().items()}
    except algs4.LibraryUnreadable as exc:
        return Build("java", None, failure=Verdict.JE, message=f"[java.algs4] in {assignment.source}: cannot read "
                                                                f"a library jar: {exc}")
    # Drivers go into the package of the student classes they use (grader.intake.java.driver).
    unnamed = libraries["unnamed"].names if "unnamed" in libraries else driver.JDK_OR_ALGS4_HINTS
    installed = driver.install(assignment.java.sources, extras, files, unnamed)
    replaced = {path for each in installed for path in each.replaces}
    files, skipped = [p for p in files if p not in replaced], skipped + sorted(replaced)
    drivers = [each.path for each in installed]
    candidates = java_main_classes(files, drivers)
    main_class = choose_main(candidates, assignment)
    # The assignment's driver sources are compiled in only when a driver runs the submission:
    # a student's own main need not match the API the driver expects.
    with_drivers = any(c.driver and c.name == main_class for c in candidates) or bool(assignment.java.main_class)
    sources = [str(p.relative_to(bundle)) for p in files + (drivers if with_drivers else [])]
    left_out = f"; left out {', '.join(str(p.relative_to(bundle)) for p in skipped)}" if skipped else ""
    if main_class is None:
        return _no_main_class(bundle, files, left_out)
    classes = workdir / "classes"
    classes.mkdir()
    values = {"build_dir": "classes-out", "classpath": ":".join(classpath_items) or ".",
              "memory_mb": str(assignment.limits.memory_mb), "heap_mb": str(assignment.limits.heap_mb),
              "main_class": main_class}
    default_build = (javac, f"-J-Xmx{JAVAC_HEAP_MB}m", "-encoding", "UTF-8", "-nowarn", "-d", "{build_dir}",
                     "-cp", "{classpath}", "{sources}")

    def compile_once(library_jars: list[Path], build_dir: str) -> tuple[bool, str, bool]:
        compile_cp = ":".join(classpath_items + [str(p.relative_to(bundle)) for p in library_jars]) or "."
        argv = _expand(assignment.java.build or default_build,
                       {**values, "build_dir": build_dir, "classpath": compile_cp}, {"sources": sources})
        outcome = runner.run_command(argv, bundle, _build_limits(assignment, jvm=True), keep=(build_dir,))
        return not outcome.timed_out and outcome.exit_code == 0, _build_log(outcome), outcome.timed_out

    compiled = java_compile.compile_submission(files, drivers if with_drivers else [], bundle, libraries, compile_once)
    log, library = compiled.log, compiled.library
    if not compiled.ok:
        return Build("java", None, entry=main_class, failure=Verdict(compiled.verdict), message=compiled.message,
                     log=log, library=library)
    out = bundle / compiled.build_dir
    class_file = PurePosixPath(*main_class.split(".")).with_suffix(".class")
    if not safe_copy.is_regular(out, class_file) and not assignment.java.main_class:
        return Build("java", None, entry=main_class, failure=Verdict.CE,
                     message=f"javac produced no {main_class} class (is the file name the class name?)", log=log)
    # classes-out was written by processes of the submission's uid (javac, a build command):
    # copied without following anything, and the classpath comes from the assignment, not the bundle.
    try:
        safe_copy.copy_tree(out, classes, into_existing=True, step="copying the compiled classes",
                            skip=lambda rel, is_dir: len(rel.parts) == 1 and rel.name in RESERVED_NAMES,
                            deadline=deadline_after(COPY_SECONDS), seconds=COPY_SECONDS)
    except StudentFault as exc:
        return Build("java", None, entry=main_class, failure=exc.verdict,
                     message=f"the compiled classes cannot be used: {compiled.build_dir}/{exc}", log=log)
    run_cp = _place_run_classpath(classes, bundle, classpath_items, assignment, libraries, compiled.run_classpath)
    default_run = _run_template(assignment, [java, "-Xmx{heap_mb}m", "-Xss8m", "-XX:+UseSerialGC",
                                             "-cp", "{classpath}", "{main_class}"])
    run_argv = _expand(tuple(assignment.java.run or default_run),
                       {**values, "classpath": run_cp, "build_dir": "."}, {})
    chosen = next((c for c in candidates if c.name == main_class), None)
    hint = driver.empty_main_hint(chosen.name, str(chosen.path.relative_to(bundle))) \
        if chosen is not None and chosen.empty and not chosen.driver else ""
    with_library = f"; {library}" if library else ""
    return Build("java", classes, run_argv, jvm=True, entry=main_class,
                 message=f"compiled {len(sources)} files; main class {main_class}"
                         f"{' (its main is empty)' if hint else ''}{with_library}{left_out}",
                 log=log, library=library, run_hint=hint)


def _no_main_class(bundle: Path, files: list[Path], left_out: str) -> Build:
    """The CE of Java sources with no launchable main, naming the files too large to have been searched."""
    large = [str(p.relative_to(bundle)) for p in files if p.stat().st_size > MAX_PARSED_BYTES]
    unread = f" (not searched, over {MAX_PARSED_BYTES:,} bytes: {', '.join(large)})" if large else ""
    return Build("java", None, failure=Verdict.CE,
                 message=f"no class with 'public static void main(String[] args)' among {len(files)} .java "
                         f"files{left_out}{unread}")


def _place_run_classpath(classes: Path, bundle: Path, classpath_items: list[str], assignment: Assignment,
                         libraries: dict[str, algs4.Library], run_jars: tuple[Path, ...]) -> str:
    """Copy the run's classpath beside the classes, from the assignment's own files (never from the bundle a
    build step could have changed); the run's ``-cp``."""
    originals = dict(zip(classpath_items, assignment.java.classpath))
    originals.update(_library_originals(libraries, bundle, run_jars))
    run_items = classpath_items + [str(p.relative_to(bundle)) for p in run_jars]
    for item in run_items:
        target = classes / item
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if originals[item].is_dir() else shutil.copy2)(originals[item], target)
    return ":".join(["."] + run_items)


def _build_limits(assignment: Assignment, jvm: bool) -> runner.Limits:
    return runner.Limits(wall_seconds=assignment.limits.build_seconds, memory_mb=max(2048, assignment.limits.memory_mb),
                         output_bytes=BUILD_LOG_BYTES, file_size_bytes=64_000_000, jvm=jvm)


# ---------------------------------------------------------------- Python
def python_entry(bundle: Path, assignment: Assignment) -> tuple[list[str], Path] | None:
    """The arguments after the interpreter, and the file to syntax-check: in the submission's top folder, else in
    its ``src/`` (an IDE's layout; run as ``src/solver.py`` from the top folder, where the input is)."""
    package = bundle / "solver" / "__main__.py"
    if package.is_file():
        return ["-m", "solver"], package
    for folder in (bundle, bundle / "src"):
        # The bundle is the build's own copy, which holds no link (grader.intake.safe_copy).
        found = _python_main(folder, assignment) if folder.is_dir() else None
        if found is not None:
            return [found.relative_to(bundle).as_posix()], found
    return None


def _python_main(folder: Path, assignment: Assignment) -> Path | None:
    for name in assignment.python.main_files:
        if (folder / name).is_file():
            return folder / name
    top = sorted(p for p in folder.glob("*.py") if p.is_file())
    if len(top) == 1:
        return top[0]
    mains = [p for p in top if _PY_MAIN_RE.search(p.read_text(encoding="utf-8", errors="replace"))]
    return mains[0] if len(mains) == 1 else None


def _build_python(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    python = python_env.prepare(assignment)  # resolved once per grading run; a missing one is a ConfigError
    entry = python_entry(bundle, assignment)
    if entry is None:
        looked = ", ".join(["solver/__main__.py", *assignment.python.main_files])
        return Build("python", None, failure=Verdict.CE,
                     message=f"no main file: looked for {looked}, or a single .py file with "
                             "'if __name__ == \"__main__\":', in the submission's top folder and in src/ "
                             "(e.g. src/solver.py)")
    args, check = entry
    # The base interpreter: the same language, and it starts with -S (a Python 2 virtualenv's does not).
    report = check_syntax(python.interpreter, check, str(check.relative_to(bundle)), workdir / "syntax-check",
                          assignment.limits.memory_mb, python.readable)
    chosen = ""
    fallback = python_env.prepare_fallback(assignment) if not report.ok and report.student_fault else None
    if fallback is not None:  # a class handing in Python 2 and 3: the other interpreter may compile it
        second = check_syntax(fallback.interpreter, check, str(check.relative_to(bundle)),
                              workdir / "syntax-check-fallback", assignment.limits.memory_mb, fallback.readable)
        if second.ok:
            python, report = fallback, second
            chosen = (f" (the fallback: {python.name.split()[0]} {python.major} code, which "
                      f"{assignment.python.interpreter} cannot compile)")
    if not report.ok:
        return Build("python", None, entry=" ".join(args), failure=Verdict.CE if report.student_fault else Verdict.JE,
                     message=report.message)
    template = tuple(assignment.python.run or _run_template(assignment, ["{python}", "{entry}"]))
    run_argv = _expand(template, {"python": python.python, **_memory(assignment)},
                       {"entry": ["-B", *args]})
    return Build("python", bundle, run_argv, entry=" ".join(args),
                 message=f"runs {' '.join(args)} with {python.describe()}{chosen}", readable=python.readable)


# ---------------------------------------------------------------- any command
_PLACEHOLDER_NAMES = re.compile(r"\{([a-z_]+)\}")


def _build_command(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    command = assignment.command
    if command is None:
        return Build("command", None, failure=Verdict.JE, message="language = 'command' needs a [command] section")
    values, lists, readable = _command_values(bundle, assignment, (*command.run, *(command.build or ())))
    log = ""
    if command.build:
        argv = _expand(command.build, values, lists)
        outcome = runner.run_command(argv, bundle, _build_limits(assignment, jvm=False), readable=readable)
        log = _build_log(outcome)
        if outcome.timed_out or outcome.exit_code != 0:
            status = "timed out" if outcome.timed_out else f"exited with status {outcome.exit_code}"
            return Build("command", None, failure=Verdict.CE, message=f"build {' '.join(argv)} {status}:\n{tail(log)}",
                         log=log)
    # Links the build step made are removed before any run copies the bundle (never followed).
    left = tuple(safe_copy.remove_links(bundle)) if command.build else ()
    return Build("command", bundle, _expand(command.run, values, lists), entry=" ".join(command.run), log=log,
                 message="built" if command.build else "no build step", readable=readable, left_out=left)


def _command_values(bundle: Path, assignment: Assignment,
                    template: tuple[str, ...]) -> tuple[dict[str, str], dict[str, list[str]], tuple[Path, ...]]:
    """Every placeholder a [command] uses, filled as the [java] and [python] modes fill it: ``{python}`` the
    configured interpreter (resolved once, outside the sandbox), ``{classpath}`` the folder and the assignment's
    jars (copied beside the code), ``{main_class}`` ``[java] main_class``, ``{sources}`` the .java files,
    ``{entry}`` the Python entry. ``{input}``, ``{output}`` and ``{board}`` are filled per run."""
    used = {name for item in template for name in _PLACEHOLDER_NAMES.findall(item)}
    values = {"build_dir": ".", **_memory(assignment)}
    lists: dict[str, list[str]] = {}
    readable: tuple[Path, ...] = ()
    if "python" in used or "entry" in used:
        python = python_env.prepare(assignment)
        values["python"], readable = python.python, python.readable
        found = python_entry(bundle, assignment)
        lists["entry"] = ["-B", *found[0]] if found else []
    if "classpath" in used:
        extras = bundle / ".grader"
        extras.mkdir(exist_ok=True)
        jars = [str(_copy_into(item, extras).relative_to(bundle)) for item in assignment.java.classpath]
        values["classpath"] = os.pathsep.join([".", *jars])
    if "main_class" in used:
        values["main_class"] = assignment.java.main_class or ""
    if "sources" in used:
        lists["sources"] = [str(p.relative_to(bundle)) for p in code_files(bundle, "*.java")]
    return values, lists, readable
