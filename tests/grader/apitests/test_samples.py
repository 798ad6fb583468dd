"""Each sample submission fails exactly the API tests aimed at its planted bug, and passes the rest.

data/python/<name>/ and data/java/<name>/ are programs written for these tests (a correct one,
and copies of it with one bug each); expected.json lists the tests each must fail.
"""

from __future__ import annotations

import dataclasses
import json
import time

import pytest

from grader.apitests.run import run_api_tests
from grader.intake.build import build
from tests.grader.apitests.conftest import DATA
from tests.support import require_tool

PYTHON = sorted(p.name for p in (DATA / "python").iterdir() if (p / "expected.json").is_file())
JAVA = sorted(p.name for p in (DATA / "java").iterdir() if (p / "expected.json").is_file())


def _failures(language: str, name: str, api_setup, run_folders) -> tuple[list[str], dict[str, str]]:
    assignment, battery = api_setup
    built = build(DATA / language / name, run_folders("build"), assignment)
    assert built.ok, built.message
    results = run_api_tests(built, battery, assignment.api, assignment, run_folders)
    failed = {r.name: r.message for r in results if not r.passed}
    return sorted(failed), failed


@pytest.mark.parametrize("name", PYTHON)
def test_python_sample(name, api_setup, run_folders):
    expected = json.loads((DATA / "python" / name / "expected.json").read_text())["fails"]
    failed, messages = _failures("python", name, api_setup, run_folders)
    assert failed == expected, messages


@pytest.mark.parametrize("name", JAVA)
def test_java_sample(name, api_setup, run_folders):
    require_tool("javac")
    expected = json.loads((DATA / "java" / name / "expected.json").read_text())["fails"]
    failed, messages = _failures("java", name, api_setup, run_folders)
    assert failed == expected, messages


def test_a_run_that_outlives_the_part_costs_its_test_and_the_rest_are_not_run(api_setup, run_folders):
    """A submission that switches off the per-test timer and hangs: the run's wall limit ends it, the test it
    was in says so, and the part's time (here 8 s) bounds everything after it."""
    assignment, battery = api_setup
    config = dataclasses.replace(assignment.api, run_seconds=8)
    built = build(DATA / "hostile" / "ignores-the-timer", run_folders("build"), assignment)
    started = time.monotonic()
    results = {r.name: r for r in run_api_tests(built, battery, config, assignment, run_folders)}
    assert time.monotonic() - started < 20
    assert results["api.conformance"].passed
    message = results["board.hamming.files"].message
    assert "timed out" in message or "did not finish" in message
    assert all("ran out" in r.message for name, r in results.items()
               if name not in ("api.conformance", "board.hamming.files"))


@pytest.mark.parametrize("name", ["ignores-the-timer", "java-suspends-the-watchdog"])
def test_a_worker_that_starves_its_own_watchdog_costs_only_the_tests_it_hung_in(name, api_setup, run_folders):
    """A submission that switches off the worker's watchdog (Python: the timer and the GIL; Java: every other
    thread suspended) and hangs, with the part's usual time: the judge kills the hung worker at the test's
    deadline from outside, and a new worker runs every test after it."""
    if name.startswith("java"):
        require_tool("javac")
    assignment, battery = api_setup
    built = build(DATA / "hostile" / name, run_folders("build"), assignment)
    results = {r.name: r for r in run_api_tests(built, battery, assignment.api, assignment, run_folders)}
    hung = {name for name, r in results.items() if "did not finish" in r.message}
    assert "board.hamming.files" in hung
    assert not any("not run" in r.message or "ran out" in r.message for r in results.values())
    assert results["board.manhattan.random"].passed and results["solver.moves.files"].passed
