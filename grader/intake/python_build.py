"""Python builds: a ``solver`` package (``python -m solver``) or a main file, run with the assignment's
interpreter and packages (:mod:`grader.intake.python_env`).

The entry file is compiled by that interpreter in the sandbox (:mod:`grader.intake.syntax_check`; never run,
never compiled in the grader), so a syntax error is a ``CE`` with its line; a class handing in both Python 2
and 3 may have the other interpreter (``fallback``) compile it.
"""

from __future__ import annotations

import re
from pathlib import Path

from grader.intake import python_env
from grader.intake.build_record import Build
from grader.intake.build_steps import expand, memory, run_template
from grader.intake.syntax_check import check_syntax
from grader.judging.verdicts import Verdict
from grader.testsets.assignment import Assignment

# Line-anchored, and ``\s+`` cannot run into the next ``if`` at a line start: linear time.
PY_MAIN_RE = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]\s*:", re.M)


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
    mains = [p for p in top if PY_MAIN_RE.search(p.read_text(encoding="utf-8", errors="replace"))]
    return mains[0] if len(mains) == 1 else None


def build_python(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
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
    template = tuple(assignment.python.run or run_template(assignment, ["{python}", "{entry}"]))
    run_argv = expand(template, {"python": python.python, **memory(assignment)}, {"entry": ["-B", *args]})
    return Build("python", bundle, run_argv, entry=" ".join(args),
                 message=f"runs {' '.join(args)} with {python.describe()}{chosen}", readable=python.readable)
