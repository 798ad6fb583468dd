"""Shared fixtures for the reporter tests: one real grading run of the sample class in data/.

data/testset is a four-case set (two visible, two hidden, one unsolvable); data/submissions
holds a correct, a suboptimal, an illegal-move and a compile-error submission.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grader.pipeline import grade
from grader.results import GradingResults

DATA = Path(__file__).resolve().parent / "data"
SUBMISSIONS = DATA / "submissions"
TESTSET = DATA / "testset"
collect_ignore_glob = ["data/*"]  # sample submissions (one has a syntax error on purpose), not tests

TIMING_KEYS = ("seconds", "cpu_seconds")


@dataclass(frozen=True)
class Graded:
    results: GradingResults
    out_dir: Path

    @property
    def document(self) -> dict[str, Any]:
        return json.loads((self.out_dir / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Graded:
    out = tmp_path_factory.mktemp("graded") / "out"
    results = grade(SUBMISSIONS, TESTSET, out, jobs=2)
    return Graded(results, out)


def normalized(document: Any) -> Any:
    """A results document with every timing field zeroed (they differ from run to run)."""
    if isinstance(document, dict):
        return {k: (0 if k in TIMING_KEYS and v is not None else normalized(v)) for k, v in document.items()}
    if isinstance(document, list):
        return [normalized(v) for v in document]
    return document


def copy_submissions(target: Path, names: list[str]) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copytree(SUBMISSIONS / name, target / name)
    return target
