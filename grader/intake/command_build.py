"""Builds of any language by the assignment's ``[command]``: an optional build step run in the sandbox, then
the run command, with the placeholders the ``[java]`` and ``[python]`` modes fill.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from grader.intake import python_env, safe_copy
from grader.intake.build_record import Build
from grader.intake.build_steps import build_limits, build_log, copy_into, expand, memory
from grader.intake.java.mains import code_files
from grader.intake.python_build import python_entry
from grader.judging.hints import tail
from grader.judging.verdicts import Verdict
from grader.sandbox import runner
from grader.testsets.assignment import Assignment

_PLACEHOLDER_NAMES = re.compile(r"\{([a-z_]+)\}")


def build_command(bundle: Path, workdir: Path, assignment: Assignment) -> Build:
    command = assignment.command
    if command is None:
        return Build("command", None, failure=Verdict.JE, message="language = 'command' needs a [command] section")
    values, lists, readable = _command_values(bundle, assignment, (*command.run, *(command.build or ())))
    log = ""
    if command.build:
        argv = expand(command.build, values, lists)
        outcome = runner.run_command(argv, bundle, build_limits(assignment, jvm=False), readable=readable)
        log = build_log(outcome)
        if outcome.timed_out or outcome.exit_code != 0:
            status = "timed out" if outcome.timed_out else f"exited with status {outcome.exit_code}"
            return Build("command", None, failure=Verdict.CE, message=f"build {' '.join(argv)} {status}:\n{tail(log)}",
                         log=log)
    # Links the build step made are removed before any run copies the bundle (never followed).
    left = tuple(safe_copy.remove_links(bundle)) if command.build else ()
    return Build("command", bundle, expand(command.run, values, lists), entry=" ".join(command.run), log=log,
                 message="built" if command.build else "no build step", readable=readable, left_out=left)


def _command_values(bundle: Path, assignment: Assignment,
                    template: tuple[str, ...]) -> tuple[dict[str, str], dict[str, list[str]], tuple[Path, ...]]:
    """Every placeholder a [command] uses, filled as the [java] and [python] modes fill it: ``{python}`` the
    configured interpreter (resolved once, outside the sandbox), ``{classpath}`` the folder and the assignment's
    jars (copied beside the code), ``{main_class}`` ``[java] main_class``, ``{sources}`` the .java files,
    ``{entry}`` the Python entry. ``{input}``, ``{output}`` and ``{board}`` are filled per run."""
    used = {name for item in template for name in _PLACEHOLDER_NAMES.findall(item)}
    values = {"build_dir": ".", **memory(assignment)}
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
        jars = [str(copy_into(item, extras).relative_to(bundle)) for item in assignment.java.classpath]
        values["classpath"] = os.pathsep.join([".", *jars])
    if "main_class" in used:
        values["main_class"] = assignment.java.main_class or ""
    if "sources" in used:
        lists["sources"] = [str(p.relative_to(bundle)) for p in code_files(bundle, "*.java")]
    return values, lists, readable
