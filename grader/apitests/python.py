"""Launching the Python harness: the submission's files and the harness's modules in one run folder.

The harness (``harness/python/apih_*.py``, Python 3.6+) goes into ``_npuzzle_api/`` beside the
student's files and runs under the assignment's interpreter (and its ``[python] packages``) with the
submission's folder as the current one, so the student's modules import as they do when the student
runs them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from grader.apitests.prepared import Prepared
from grader.errors import ConfigError
from grader.intake import python_env
from grader.intake.build import Build
from grader.testsets.assignment import Assignment

HARNESS = Path(__file__).resolve().parent / "harness" / "python"
FOLDER = "_npuzzle_api"
MAIN = "apih_main.py"


def prepare(build: Build, workdir: Path, assignment: Assignment, spec: dict[str, Any]) -> Prepared:
    """Fill ``workdir``; the run reads ``spec`` as JSON on its stdin."""
    try:
        runtime = python_env.prepare(assignment)  # the build's own interpreter and packages (cached per run)
    except ConfigError as exc:
        return Prepared((), problem=f"the assignment's Python cannot run here: {exc} (a grader fault)")
    if runtime.major < 3:
        return Prepared((), problem=f"not run: the API tests need Python 3.6 or later, and this assignment runs "
                                    f"{runtime.describe()}")
    assert build.bundle is not None
    shutil.copytree(build.bundle, workdir, symlinks=True, dirs_exist_ok=True)
    harness = workdir / FOLDER
    harness.mkdir(exist_ok=True)
    for module in sorted(HARNESS.glob("apih_*.py")):
        shutil.copy2(module, harness / module.name)
    return Prepared((runtime.python, "-B", f"{FOLDER}/{MAIN}"), readable=runtime.readable,
                    stdin=json.dumps(spec).encode())
