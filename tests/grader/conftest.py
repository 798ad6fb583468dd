"""The grader's tests. data/ holds student programs and outputs: data to grade, never test modules."""

from __future__ import annotations

import pytest

from tests.grader.sampleclass import Graded, grade_sample_class

collect_ignore_glob = ["data/*"]


@pytest.fixture(scope="session")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Graded:
    """One grading run of the sample class, shared by every test that only reads its reports."""
    return grade_sample_class(tmp_path_factory.mktemp("graded") / "out")
