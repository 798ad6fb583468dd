"""Many workers at once: a mixed class of Java and Python submissions, built and graded at -j 8, twice.

Worker threads share the process: a tree-sitter parser used by two threads at once crashed a whole run
(segfault at -j 2), and any module-level cache they share could mix one submission's state into another's.
Two copies of every example submission are built concurrently and graded on the same cases, twice over:
every copy and every repeat must give the same verdict per case, and no case may be a grader fault (JE).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.pipeline import grade
from grader.testsets.bundled import default_testset
from tests.support import REPO

EXAMPLES = REPO / "examples" / "submissions"
CASES = ["3x3-rand-01", "3x3-unsolvable-01"]  # a solvable and an unsolvable board: every example shows its fault
COPIES = 2
REPEATS = 2


def mixed_class(target: Path) -> list[str]:
    names = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())
    for copy in range(COPIES):
        for name in names:
            shutil.copytree(EXAMPLES / name, target / f"{name}--{copy}")
    return names


@pytest.mark.slow
def test_a_mixed_class_at_j8_gives_the_same_verdicts_every_time(tmp_path: Path) -> None:
    names = mixed_class(tmp_path / "class")
    assert any("java" in name for name in names) and any("python" in name for name in names)
    seen: dict[str, tuple[str, ...]] = {}
    for repeat in range(REPEATS):
        results = grade(tmp_path / "class", default_testset(), None, jobs=8, cases=CASES, time_limit=1.0)
        assert len(results.submissions) == COPIES * len(names)
        for submission in results.submissions:
            verdicts = tuple(case.verdict.value for case in submission.cases)
            assert "JE" not in verdicts and submission.build.verdict != "JE", (submission.id, submission.cases)
            name = submission.id.split("--")[0]
            assert seen.setdefault(name, verdicts) == verdicts, f"{submission.id} (repeat {repeat + 1})"
    assert seen["AC-python-correct"] == ("AC", "AC") and seen["CE-java-compile-error"] == ("CE", "CE")
