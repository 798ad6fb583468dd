"""Gradescope: build the autograder zip, and grade one submission inside Gradescope's container.

``grade gradescope build`` writes ``autograder.zip`` with, at its root, ``setup.sh``
(installs Python, a JDK and this project, bundled as source under ``project/``),
``run_autograder``, and the test set under ``testcases/``. Gradescope unpacks it into
``/autograder/source`` and, for every student, runs ``run_autograder``, which calls
``grade gradescope run``: the folder ``/autograder/submission`` is graded as ONE
submission on every case, and ``/autograder/results/results.json`` is written in
Gradescope's format (checked against ``grader/schemas/gradescope.schema.json``).

The build is a visible test worth no points, so a compile error shows as such; visible
cases are ``visible`` and hidden ones ``after_due_date``. ``results.json`` is written
whatever happens: a grader fault becomes a zero-score result that says so, and should
Python itself fail, ``run_autograder`` writes a fixed one. The root is ``/autograder``
unless ``AUTOGRADER_ROOT`` says otherwise (the tests use a fake root).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import io
import json
import os
import shutil
import tempfile
import time
import traceback
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from grader.integrations.container import Capacity, Sizing, read_capacity, size_run
from grader.judging.verdicts import SEVERITY, Verdict
from grader.model.results import BuildRecord, CaseResult, GradingResults
from grader.model.schemacheck import validate
from grader.reports.api_views import integration_tests
from grader.reports.escaping import json_text
from solver.fileio import write_atomic

SCHEMA = "gradescope.schema.json"
DEFAULT_ROOT = Path("/autograder")
SUBMISSION_ID = "submission"
PACKAGES = ("solver", "grader")
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")
_SKIP_IN_PACKAGES = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo", "pdb-*.bin.xz", "*.so")
"""The solver's pattern tables (46.8 of a 47 MB zip) and machine-built extensions: grading uses neither."""


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 6)


def _build_test(build: BuildRecord) -> dict[str, Any]:
    ok = build.ok and "ok" in build.model_fields_set  # an unbuilt submission's empty record is no success
    lines = [build.message or ("built" if ok else "the build failed")]
    if build.log:
        lines += ["", build.log]
    return {"name": "Build (compile check)", "score": 0, "max_score": 0, "status": "passed" if ok else "failed",
            "output": "\n".join(lines), "visibility": "visible"}


VISIBILITY = {"visible": "visible", "hidden": "hidden", "after_due_date": "after_due_date",
              "after_published": "after_published"}
"""A case's visibility in manifest.json -> Gradescope's test visibility (the same words).

``visible``: always shown; ``after_due_date``: shown once the due date (the late due date,
if late submissions are allowed) has passed; ``after_published``: shown once the course
publishes the grades; ``hidden``: never shown to students. Anything unknown is ``hidden``."""


def _visibility(case: CaseResult) -> str:
    return VISIBILITY.get(case.visibility, "hidden")


def _summary(cases: Sequence[CaseResult]) -> str:
    """The always-visible line: the visible cases' points and verdicts, and nothing of the others."""
    score = sum(case.points for case in cases)
    top = sum(case.max_points for case in cases)
    counts = Counter(case.verdict.value for case in cases)
    listing = ", ".join(f"{counts[v.value]} {v.value}" for v in SEVERITY if counts[v.value])
    return (f"Visible cases: {_number(score)} / {_number(top)} points on {len(cases)} "
            f"case{'s' * (len(cases) != 1)}" + (f" ({listing})" if listing else "") + ".")


def gradescope_results(results: GradingResults, seconds: float) -> dict[str, Any]:
    """Gradescope's results.json for the one submission in a results.json document.

    Nothing a student sees before a case's results are released mentions that case: the
    top-level ``output`` (always shown) counts the visible cases only, each case is a test
    with the case's own visibility, and the grader's stdout is hidden from students. The
    top-level ``score`` is the whole grade (hidden cases included): Gradescope's own
    settings decide when a student sees that total.
    """
    submissions = results.submissions
    if len(submissions) != 1:
        raise ValueError(f"expected exactly one submission to report to Gradescope, found {len(submissions)}")
    submission = submissions[0]
    tests = [_build_test(submission.build)]
    shown = []
    for case in submission.cases:
        verdict = case.verdict
        visibility = _visibility(case)
        if visibility == "visible":
            shown.append(case)
        tests.append({"name": case.case, "score": _number(case.points), "max_score": _number(case.max_points),
                      "status": "passed" if verdict is Verdict.AC else "failed",
                      "output": f"{verdict.value}: {verdict.meaning}\n\n{case.message}".rstrip(),
                      "visibility": visibility})
    api = integration_tests(submission)  # API tests are visible: they always go with the visible cases
    for test in api:
        tests.append({"name": test["name"], "score": _number(test["points"]), "max_score": _number(test["max_points"]),
                      "status": "passed" if test["passed"] else "failed", "output": test["message"],
                      "visibility": "visible"})
    output = _summary(shown)
    if api:
        output += f" API tests: {sum(t['passed'] for t in api)} of {len(api)} passed."
    if len(shown) < len(submission.cases):
        output += " Other cases are graded too; their results appear when the course releases them."
    if results.interrupted or not submission.complete:
        output += " Grading stopped early: some cases were not graded."
    document = {"score": _number(submission.score), "execution_time": round(seconds, 3), "output": output,
                "stdout_visibility": "hidden", "tests": tests}
    validate(document, SCHEMA, "gradescope results")
    return document


def failure_results(message: str, seconds: float) -> dict[str, Any]:
    """A zero score that says the autograder failed (not the student), for Gradescope to show."""
    text = f"The autograder failed before it could grade this submission; please tell the course staff.\n\n{message}"
    document = {"score": 0, "execution_time": round(seconds, 3), "output": text,
                "tests": [{"name": "Autograder", "score": 0, "max_score": 0, "status": "failed", "output": text,
                           "visibility": "visible"}]}
    validate(document, SCHEMA, "gradescope results")
    return document


def size_for_container(testset_dir: Path, jobs: int | None = None, capacity: Capacity | None = None) -> Sizing:
    """Parallel runs and memory per run for this container and the test set's assignment.

    ``jobs`` (``--jobs``) caps the parallel runs; the memory per run never exceeds the assignment's.
    """
    from grader.testsets.assignment import find_assignment, load_assignment

    memory_mb = load_assignment(find_assignment(Path(testset_dir))).limits.memory_mb
    return size_run(capacity or read_capacity(), memory_mb, max_jobs=jobs)


def run(root: Path, jobs: int | None = None, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Grade ``root/submission`` on ``root/source/testcases``; write and return ``root/results/results.json``.

    The run is sized to the container (:func:`size_for_container`), and ``log`` gets one line
    saying how (it lands in Gradescope's stdout, which students do not see). Never raises for a
    grading problem: any failure becomes :func:`failure_results`.
    """
    from grader.pipeline import grade

    started = time.monotonic()
    out = root / "results" / "results.json"
    testcases = root / "source" / "testcases"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        sizing = size_for_container(testcases, jobs)
        log(f"gradescope: {sizing.reason}")
        with tempfile.TemporaryDirectory(prefix="npuzzle-gradescope-") as temp:
            # The pipeline grades each subfolder of a folder; this one holds the submission alone.
            holder = Path(temp) / "submissions"
            holder.mkdir()
            (holder / SUBMISSION_ID).symlink_to((root / "submission").resolve(), target_is_directory=True)
            graded = grade(holder, testcases, None, jobs=sizing.jobs, memory_mb=sizing.memory_mb)
        document = gradescope_results(graded, time.monotonic() - started)
    except Exception as exc:  # a grader fault must still give Gradescope a results.json
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        document = failure_results(detail, time.monotonic() - started)
    write_atomic(out, json_text(document, pretty=True) + "\n")
    return document


# --------------------------------------------------------------------------- the zip
def _template(name: str) -> str:
    return (Path(__file__).resolve().parent / "templates" / "gradescope" / name).read_text(encoding="utf-8")


def _pyproject() -> str:
    """A pyproject.toml for the bundled source, from the installed project's own metadata."""
    meta = importlib.metadata.metadata("npuzzle-grader")
    requires = [r for r in importlib.metadata.requires("npuzzle-grader") or [] if "extra ==" not in r]
    deps = "".join(f"    {json.dumps(r)},\n" for r in requires)
    return ('[build-system]\nrequires = ["setuptools>=68", "wheel"]\nbuild-backend = "setuptools.build_meta"\n\n'
            f'[project]\nname = "npuzzle-grader"\nversion = {json.dumps(meta["Version"])}\n'
            f'requires-python = {json.dumps((meta.get_all("Requires-Python") or [">=3.10"])[0])}\n'
            f"dependencies = [\n{deps}]\n\n"
            '[project.scripts]\ngrade = "grader.cli:entry"\nnpuzzle-solve = "solver.cli:entry"\n\n'
            '[tool.setuptools.packages.find]\ninclude = ["solver*", "grader*"]\n\n'
            '[tool.setuptools.package-data]\n"*" = ["**/*"]\n')


def _add_tree(archive: zipfile.ZipFile, folder: Path, prefix: str, ignore: Callable = _SKIP) -> None:
    with tempfile.TemporaryDirectory() as temp:
        copy = Path(temp) / "tree"
        shutil.copytree(folder, copy, ignore=ignore)
        for path in sorted(copy.rglob("*")):
            if path.is_file():
                archive.write(path, f"{prefix}/{path.relative_to(copy).as_posix()}")


def _add_text(archive: zipfile.ZipFile, name: str, text: str, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100755 if executable else 0o100644) << 16
    archive.writestr(info, text)


def build_zip(testset_dir: Path, out: Path) -> Path:
    """Write the autograder zip: setup.sh, run_autograder, project/ and testcases/ at its root."""
    from grader.testsets.assignment import load_assignment, require_assignment
    from grader.testsets.carry import carry_testset
    from grader.testsets.model import load_testset

    testset = load_testset(Path(testset_dir))  # refuse a broken set now, not in every student's run
    load_assignment(require_assignment(testset.root))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        _add_text(archive, "setup.sh", _template("setup.sh"), executable=True)
        _add_text(archive, "run_autograder", _template("run_autograder.sh"), executable=True)
        _add_text(archive, "project/pyproject.toml", _pyproject())
        for package in PACKAGES:
            _add_tree(archive, Path(str(importlib.import_module(package).__file__)).resolve().parent,
                      f"project/{package}", _SKIP_IN_PACKAGES)
        with tempfile.TemporaryDirectory() as temp:
            # Jars, drivers and extra files the assignment names by a host path go in with the set.
            carry_testset(testset.root, Path(temp) / "testcases")
            _add_tree(archive, Path(temp) / "testcases", "testcases")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, buffer.getvalue())
    return out


# --------------------------------------------------------------------------- CLI
@click.group("gradescope")
def gradescope_command() -> None:
    """Gradescope: build the autograder zip; grade one submission inside Gradescope."""


@gradescope_command.command("build")
@click.option("--testcases", "testcases", type=click.Path(path_type=Path, file_okay=False),
              help="Test set folder to bundle (default: ./testcases, else the bundled set).")
@click.option("--out", "out", type=click.Path(path_type=Path, dir_okay=False), default=Path("autograder.zip"),
              show_default=True, help="Where to write the zip.")
def build_command(testcases: Path | None, out: Path) -> int:
    """Write the zip to upload as a Gradescope programming assignment's autograder."""
    from grader.testsets.bundled import default_testset, resolve_testset

    path = build_zip(resolve_testset(testcases) if testcases else default_testset(), out)
    click.echo(f"wrote {path} (upload it as the assignment's autograder; Gradescope runs setup.sh once)")
    return 0


@gradescope_command.command("run")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False),
              default=lambda: os.environ.get("AUTOGRADER_ROOT", str(DEFAULT_ROOT)),
              help="The autograder root (default: $AUTOGRADER_ROOT, else /autograder).")
@click.option("-j", "--jobs", type=click.IntRange(min=1),
              help="At most this many parallel runs (default: as many as the container's CPU quota and memory hold).")
def run_command(root: Path, jobs: int | None) -> int:
    """Grade ROOT/submission and write ROOT/results/results.json (what run_autograder calls)."""
    document = run(Path(root), jobs, log=click.echo)
    click.echo(f"score {document['score']}: {document['output'].splitlines()[0]}")
    return 0
