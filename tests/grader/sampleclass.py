"""The sample class: one real grading run that the reporter, integration and merge tests share.

data/sample-class/testset is a four-case set (two visible, two hidden, one unsolvable); data/sample-class/submissions
holds a correct, a suboptimal, an illegal-move and a compile-error submission.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.model.results import GradingResults
from grader.pipeline import grade

DATA = Path(__file__).resolve().parent / "data" / "sample-class"
SUBMISSIONS = DATA / "submissions"
TESTSET = DATA / "testset"

TIMING_KEYS = ("seconds", "cpu_seconds")
SLICES = 3
"""How many shards the merge tests grade the sample class in (the ``sample_slices`` fixture)."""


@dataclass(frozen=True)
class Graded:
    results: GradingResults
    out_dir: Path

    @property
    def document(self) -> dict[str, Any]:
        return json.loads((self.out_dir / "results.json").read_text(encoding="utf-8"))


def grade_sample_class(out: Path) -> Graded:
    """Grade the sample class into ``out`` (the ``graded`` fixture does it once per session)."""
    return Graded(grade(SUBMISSIONS, TESTSET, out, jobs=2), out)


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
