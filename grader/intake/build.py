"""Languages: turn a submission's folder into something runnable, once per submission.

- Java: every ``.java`` file (plus the assignment's driver sources) compiled once with
  ``javac`` into a classes folder; the main class is found from the sources, inside a
  ``package`` too; runs get ``-Xmx`` (an address-space limit stops the JVM from starting).
- Python: a ``solver`` package (``python -m solver``) or a main file, run with the
  assignment's interpreter and packages (:mod:`grader.intake.python_env`); the entry file
  is compiled by that interpreter in the sandbox (:mod:`grader.intake.syntax_check`; never
  run, never compiled in the grader) so a syntax error is a ``CE`` with its line.
- Any command from ``[command]`` in the assignment.

The result is a :class:`Build`: a bundle folder copied into each run's fresh folder, and
the run argv with ``{input}``/``{output}`` left for the case. A student's fault is a
``CE``; a missing toolchain is a ``JE`` naming what to install; neither raises.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from grader.intake import python_env
from grader.intake.syntax_check import check_syntax
from grader.sandbox import runner
from grader.testsets.assignment import Assignment
from grader.judging.hints import tail
from grader.judging.verdicts import Verdict

BUILD_LOG_BYTES = 200_000
MAX_SUBMISSION_BYTES = 50_000_000
MAX_SUBMISSION_FILES = 5_000
"""A submission larger than these (a virtualenv, a data set...) is refused instead of copied into every run."""
JAVAC_HEAP_MB = 768
_PACKAGE_RE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
_MAIN_RE = re.compile(r"\b(public\s+)?static\s+(public\s+)?(final\s+)?void\s+main\s*\(\s*(final\s+)?String")
_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_EMPTY_BODY_RE = re.compile(r"[^)]*\)\s*(throws\s+[\w.,\s]+)?\{\s*\}")
_JUNIT_RE = re.compile(r"^\s*import\s+(static\s+)?(org\.junit|junit)\.", re.M)
_PY_MAIN_RE = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]\s*:", re.M)


@dataclass(frozen=True)
class Build:
    """A built submission, or why it could not be built (``failure`` is CE or JE)."""

    language: str
    bundle: Path | None
    run_argv: tuple[str, ...] = ()
    jvm: bool = False
    readable: tuple[Path, ...] = ()
    entry: str | None = None
    failure: Verdict | None = None
    message: str = ""
    log: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict:
        return {"language": self.language, "ok": self.ok, "entry": self.entry,
                "verdict": self.failure.value if self.failure else None, "message": self.message,
                "log": self.log, "seconds": round(self.seconds, 3)}


def detect_language(source: Path, assignment: Assignment) -> str | None:
    if assignment.language != "auto":
        return assignment.language
    if _files(source, "*.java"):
        return "java"
    if _files(source, "*.py"):
        return "python"
    if assignment.command is not None:
        return "command"
    return None


def build(source: Path, workdir: Path, assignment: Assignment) -> Build:
    """Build the submission in ``source`` inside the empty folder ``workdir``."""
    started = time.monotonic()
    language = detect_language(source, assignment)
    if language is None:
        found = sorted(p.name for p in source.iterdir())[:10]
        return Build("unknown", None, failure=Verdict.CE,
                     message=f"no .java or .py files found (the submission holds: {', '.join(found) or 'nothing'})")
    files = [p for p in source.rglob("*") if p.is_file() and not p.is_symlink()]
    size = sum(p.stat().st_size for p in files)
    if size > MAX_SUBMISSION_BYTES or len(files) > MAX_SUBMISSION_FILES:
        return Build(language, None, failure=Verdict.CE,
                     message=f"the submission holds {len(files):,} files and {size:,} bytes (at most "
                             f"{MAX_SUBMISSION_FILES:,} and {MAX_SUBMISSION_BYTES:,}): hand in source files only")
    bundle = workdir / "bundle"
    shutil.copytree(source, bundle, symlinks=True, ignore=shutil.ignore_patterns("__MACOSX", ".git", "*.class"))
    for extra in assignment.extra_files:
        _copy_into(extra, bundle)
    builder = {"java": _build_java, "python": _build_python, "command": _build_command}[language]
    return dataclasses.replace(builder(bundle, workdir, assignment), seconds=time.monotonic() - started)


def _files(root: Path, pattern: str) -> list[Path]:
    return sorted(p for p in root.rglob(pattern)
                  if p.is_file() and not any(part in ("__MACOSX", ".git") for part in p.parts))


def _copy_into(path: Path, folder: Path) -> Path:
    target = folder / path.name
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
        for name, value in values.items():
            item = item.replace("{" + name + "}", value)
        out.append(item)
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
@dataclass(frozen=True)
class MainClass:
    """A class that declares ``main``: its qualified name, file, and whether ``main`` does anything."""

    name: str
    path: Path
    empty: bool
    driver: bool = False

    @property
    def simple(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def java_sources(bundle: Path, extras: Path) -> tuple[list[Path], list[Path]]:
    """The student's files to compile, and those left out: JUnit tests (no JUnit here), and,
    when the project has a ``src/`` folder, copies elsewhere (backups, ``out/``) that would
    clash as duplicate classes."""
    files = [p for p in _files(bundle, "*.java") if extras not in p.parents]
    src = bundle / "src"
    in_src = [p for p in files if src in p.parents]
    keep, skipped = [], []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if _JUNIT_RE.search(text) or (in_src and src not in path.parents):
            skipped.append(path)
        else:
            keep.append(path)
    return keep, skipped


def java_main_classes(files: list[Path], drivers: list[Path] = ()) -> list[MainClass]:
    """Every file whose class declares ``main``; ``drivers`` are the assignment's own."""
    found = []
    for path in [*files, *drivers]:
        text = _COMMENT_RE.sub("", path.read_text(encoding="utf-8", errors="replace"))
        match = _MAIN_RE.search(text)
        if match:
            package = _PACKAGE_RE.search(text)
            empty = bool(_EMPTY_BODY_RE.match(text[match.end():]))
            found.append(MainClass((package.group(1) + "." if package else "") + path.stem, path, empty,
                                   path in drivers))
    return found


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
                      key=lambda c: (_preference(c, assignment), len(c.path.parts), c.name))
    drivers = [c for c in candidates if c.driver]
    if students and not students[0].empty:
        return students[0].name
    if drivers:
        return drivers[0].name
    return students[0].name if students else None


def _preference(candidate: MainClass, assignment: Assignment) -> int:
    names = assignment.java.preferred_mains
    return names.index(candidate.simple) if candidate.simple in names else len(names)


def _build_java(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    javac, java = _tool("javac"), _tool("java")
    if javac is None or java is None:
        return Build("java", None, failure=Verdict.JE,
                     message="the grading machine has no Java toolchain (javac/java not found): install a JDK 11+")
    extras = bundle / ".grader"
    extras.mkdir()
    for source in assignment.java.sources:
        _copy_into(source, extras)
    classpath_items = [str(_copy_into(item, extras).relative_to(bundle)) for item in assignment.java.classpath]
    files, skipped = java_sources(bundle, extras)
    drivers = _files(extras, "*.java")
    candidates = java_main_classes(files, drivers)
    main_class = choose_main(candidates, assignment)
    # The assignment's driver sources are compiled in only when a driver runs the submission:
    # a student's own main need not match the API the driver expects.
    with_drivers = any(c.driver and c.name == main_class for c in candidates) or bool(assignment.java.main_class)
    sources = [str(p.relative_to(bundle)) for p in files + (drivers if with_drivers else [])]
    left_out = f"; left out {', '.join(str(p.relative_to(bundle)) for p in skipped)}" if skipped else ""
    if main_class is None:
        return Build("java", None, failure=Verdict.CE,
                     message=f"no class with 'public static void main(String[] args)' among {len(files)} .java "
                             f"files{left_out}")
    classes = workdir / "classes"
    classes.mkdir()
    compile_cp = ":".join(classpath_items) or "."
    values = {"build_dir": "classes-out", "classpath": compile_cp, "memory_mb": str(assignment.limits.memory_mb),
              "heap_mb": str(assignment.limits.heap_mb), "main_class": main_class}
    default_build = (javac, f"-J-Xmx{JAVAC_HEAP_MB}m", "-encoding", "UTF-8", "-nowarn", "-d", "{build_dir}",
                     "-cp", "{classpath}", "{sources}")
    argv = _expand(assignment.java.build or default_build, values, {"sources": sources})
    outcome = runner.run_command(argv, bundle, _build_limits(assignment, jvm=True))
    log = _build_log(outcome)
    if outcome.timed_out or outcome.exit_code != 0:
        why = "javac timed out" if outcome.timed_out else f"javac failed ({_count_errors(log)})"
        return Build("java", None, entry=main_class, failure=Verdict.CE, message=f"{why}:\n{_first_errors(log)}",
                     log=log)
    out = bundle / "classes-out"
    class_file = out.joinpath(*main_class.split(".")).with_suffix(".class")
    if not class_file.is_file() and not assignment.java.main_class:
        return Build("java", None, entry=main_class, failure=Verdict.CE,
                     message=f"javac produced no {main_class} class (is the file name the class name?)", log=log)
    shutil.copytree(out, classes, dirs_exist_ok=True)
    for item in classpath_items:
        target = classes / item
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if (bundle / item).is_dir() else shutil.copy2)(bundle / item, target)
    run_cp = ":".join(["."] + classpath_items)
    default_run = _run_template(assignment, [java, "-Xmx{heap_mb}m", "-Xss8m", "-XX:+UseSerialGC",
                                             "-cp", "{classpath}", "{main_class}"])
    run_argv = _expand(tuple(assignment.java.run or default_run),
                       {**values, "classpath": run_cp, "build_dir": "."}, {})
    return Build("java", classes, run_argv, jvm=True, entry=main_class,
                 message=f"compiled {len(sources)} files; main class {main_class}{left_out}", log=log)


def _count_errors(log: str) -> str:
    match = re.search(r"^(\d+) errors?$", log, re.M)
    return f"{match.group(1)} error{'s' if match.group(1) != '1' else ''}" if match else "see the log"


def _first_errors(log: str, lines: int = 8) -> str:
    kept = [line for line in log.splitlines() if line.strip() and not line.startswith("Picked up")]
    return "\n".join(kept[:lines])


def _build_limits(assignment: Assignment, jvm: bool) -> runner.Limits:
    return runner.Limits(wall_seconds=assignment.limits.build_seconds, memory_mb=max(2048, assignment.limits.memory_mb),
                         output_bytes=BUILD_LOG_BYTES, file_size_bytes=64_000_000, jvm=jvm)


# ---------------------------------------------------------------- Python
def python_entry(bundle: Path, assignment: Assignment) -> tuple[list[str], Path] | None:
    """The arguments after the interpreter, and the file to syntax-check."""
    package = bundle / "solver" / "__main__.py"
    if package.is_file():
        return ["-m", "solver"], package
    for name in assignment.python.main_files:
        if (bundle / name).is_file():
            return [name], bundle / name
    top = sorted(p for p in bundle.glob("*.py") if p.is_file())
    if len(top) == 1:
        return [top[0].name], top[0]
    mains = [p for p in top if _PY_MAIN_RE.search(p.read_text(encoding="utf-8", errors="replace"))]
    if len(mains) == 1:
        return [mains[0].name], mains[0]
    return None


def _build_python(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    python = python_env.prepare(assignment)  # resolved once per grading run; a missing one is a ConfigError
    entry = python_entry(bundle, assignment)
    if entry is None:
        looked = ", ".join(["solver/__main__.py", *assignment.python.main_files])
        return Build("python", None, failure=Verdict.CE,
                     message=f"no main file: looked for {looked}, or a single .py file with "
                             "'if __name__ == \"__main__\":'")
    args, check = entry
    report = check_syntax(python.python, check, str(check.relative_to(bundle)), workdir / "syntax-check",
                          assignment.limits.memory_mb, python.readable)
    if not report.ok:
        return Build("python", None, entry=" ".join(args), failure=Verdict.CE if report.student_fault else Verdict.JE,
                     message=report.message)
    template = tuple(assignment.python.run or _run_template(assignment, ["{python}", "{entry}"]))
    run_argv = _expand(template, {"python": python.python, **_memory(assignment)},
                       {"entry": ["-B", *args]})
    return Build("python", bundle, run_argv, entry=" ".join(args),
                 message=f"runs {' '.join(args)} with {python.describe()}", readable=python.readable)


# ---------------------------------------------------------------- any command
def _build_command(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    command = assignment.command
    if command is None:
        return Build("command", None, failure=Verdict.JE, message="language = 'command' needs a [command] section")
    values = {"build_dir": ".", **_memory(assignment)}
    log = ""
    if command.build:
        argv = _expand(command.build, values, {})
        outcome = runner.run_command(argv, bundle, _build_limits(assignment, jvm=False))
        log = _build_log(outcome)
        if outcome.timed_out or outcome.exit_code != 0:
            status = "timed out" if outcome.timed_out else f"exited with status {outcome.exit_code}"
            return Build("command", None, failure=Verdict.CE, message=f"build {' '.join(argv)} {status}:\n{tail(log)}",
                         log=log)
    return Build("command", bundle, _expand(command.run, values, {}), entry=" ".join(command.run), log=log,
                 message="built" if command.build else "no build step")
