"""Launching the Python harness: the submission's files and the harness's modules in one run folder.

The harness (``harness/python/apih_*.py``) goes into ``_npuzzle_api/`` beside the student's
files and runs under the assignment's interpreter with the submission's folder as the
current one, so the student's modules import as they do when the student runs them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from grader.apitests.prepared import Prepared
from grader.intake.build import Build, python_interpreter
from grader.testsets.assignment import Assignment

HARNESS = Path(__file__).resolve().parent / "harness" / "python"
FOLDER = "_npuzzle_api"
MAIN = "apih_main.py"


def prepare(build: Build, workdir: Path, assignment: Assignment, spec: dict[str, Any]) -> Prepared:
    """Fill ``workdir``; the run reads ``spec`` as JSON on its stdin."""
    interpreter = python_interpreter(assignment)
    if interpreter is None:
        return Prepared((), problem=f"the grading machine has no Python interpreter "
                                    f"{assignment.python.interpreter!r} (a grader fault)")
    assert build.bundle is not None
    shutil.copytree(build.bundle, workdir, symlinks=True, dirs_exist_ok=True)
    harness = workdir / FOLDER
    harness.mkdir(exist_ok=True)
    for module in sorted(HARNESS.glob("apih_*.py")):
        shutil.copy2(module, harness / module.name)
    return Prepared((interpreter, "-B", f"{FOLDER}/{MAIN}"), readable=build.readable,
                    stdin=json.dumps(spec).encode())
