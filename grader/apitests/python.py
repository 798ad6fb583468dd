"""Launching the Python worker: the submission's files and the worker's modules in one run folder.

The worker (``harness/python/apiw_worker.py`` and the ``apih_*.py`` beside it, Python 3.6+) goes
into ``_npuzzle_api/`` beside the student's files and runs under the assignment's interpreter (and
its ``[python] packages``) with the submission's folder as the current one, so the student's
modules import as they do when the student runs them. It gets nothing but the path of the judge's
socket: the tests, their boards and their answers stay in the judge (:mod:`grader.apitests.judge`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from grader.apitests.prepared import Prepared
from grader.errors import ConfigError
from grader.intake import python_env, safe_copy
from grader.intake.build import RUN_NAMES, Build
from grader.intake.timecap import StudentFault
from grader.testsets.assignment import Assignment

HARNESS = Path(__file__).resolve().parent / "harness" / "python"
FOLDER = "_npuzzle_api"
MAIN = "apiw_worker.py"
SOCKET = "judge.sock"
"""The judge's socket's name (the judge adds its path to the worker's argv)."""


REFERENCE = ("apih_ref.py", "apih_count.py")
"""The reference Board and the counting: copied only for the Solver tests' runs, so that the Board tests'
worker has no correct Board a student's could borrow."""


def prepare(build: Build, workdir: Path, assignment: Assignment, reference: bool) -> Prepared:
    """Fill ``workdir`` (with the reference Board when ``reference``); the judge adds its socket's path to
    the argv."""
    try:
        runtime = python_env.prepare(assignment)  # the build's own interpreter and packages (cached per run)
    except ConfigError as exc:
        return Prepared((), problem=f"the assignment's Python cannot run here: {exc} (a grader fault)")
    if runtime.major < 3:
        return Prepared((), problem=f"not run: the API tests need Python 3.6 or later, and this assignment runs "
                                    f"{runtime.describe()}")
    assert build.bundle is not None
    try:  # no link followed, and a student's own _npuzzle_api/ cannot shadow the harness's modules
        safe_copy.copy_tree(build.bundle, workdir, into_existing=True,
                            skip=lambda rel, is_dir: str(rel) in (FOLDER, *RUN_NAMES))
    except StudentFault as exc:
        return Prepared((), problem=f"not run: the submission cannot be copied for the API tests: {exc}")
    harness = workdir / FOLDER
    harness.mkdir(exist_ok=True)
    for module in [*sorted(HARNESS.glob("apih_*.py")), HARNESS / MAIN]:
        if reference or module.name not in REFERENCE:
            shutil.copy2(module, harness / module.name)
    return Prepared((runtime.python, "-B", f"{FOLDER}/{MAIN}"), readable=runtime.readable)
