"""The grader's tests. data/ holds student programs and outputs: data to grade, never test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.pipeline import grade
from grader.shard import Shard
from tests.grader.sampleclass import (
    SLICES,
    SUBMISSIONS,
    TESTSET,
    Graded,
    grade_sample_class,
)

collect_ignore_glob = ["data/*"]


@pytest.fixture(scope="session")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Graded:
    """One grading run of the sample class, shared by every test that only reads its reports."""
    return grade_sample_class(tmp_path_factory.mktemp("graded") / "out")


@pytest.fixture(scope="session")
def sample_slices(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The sample class graded in three shards (slice i of 3 each), shared by the merge tests, which only read
    them: the results.json of each slice."""
    root = tmp_path_factory.mktemp("slices")
    paths = []
    for index in range(1, SLICES + 1):
        grade(SUBMISSIONS, TESTSET, root / f"slice-{index}", jobs=2, shard=Shard(index, SLICES))
        paths.append(root / f"slice-{index}" / "results.json")
    return paths
