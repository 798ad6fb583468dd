"""The API tests' tests. data/ holds sample submissions and a small test set: data, never test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.apitests.battery import Battery
from grader.testsets.assignment import Assignment, load_assignment
from grader.testsets.model import load_testset
from tests import support

collect_ignore_glob = ["data/*"]
DATA = Path(__file__).resolve().parent / "data"
TESTSET = DATA / "testset"


@pytest.fixture(scope="session")
def api_setup() -> tuple[Assignment, Battery]:
    """The test data's assignment (with its [api] part) and its battery, computed once."""
    assignment = load_assignment(TESTSET / "assignment.toml")
    assert assignment.api is not None
    return assignment, Battery(load_testset(TESTSET).cases, assignment.api)


@pytest.fixture()
def run_folders() -> Iterator:
    """Makes fresh run folders the sandbox's uid can reach (0711 all the way, as the pipeline's are)."""
    with support.run_folders("npuzzle-apitest-") as make:
        yield make
