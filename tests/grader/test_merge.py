"""grade merge: sharded runs joined equal one run; mismatched slices and duplicates are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grader.cli import entry
from grader.errors import ConfigError
from grader.merge import merge_files, merge_results
from grader.reports.json_results import read_results, results_from_json
from tests.grader.sampleclass import (
    TESTSET,
    Graded,
    copy_submissions,
    normalized,
)


def test_sharded_run_merged_equals_a_single_run(graded: Graded, sample_slices: list[Path], tmp_path: Path) -> None:
    paths = sample_slices
    shard_ids = [[s["id"] for s in json.loads(p.read_text())["submissions"]] for p in paths]
    assert shard_ids == [["compile-error", "suboptimal"], ["correct"], ["illegal-move"]]
    assert entry(["merge", str(tmp_path / "merged"), *map(str, reversed(paths))]) == 0
    merged_dir = tmp_path / "merged"
    # results.json: the same bytes once the run timings are zeroed.
    single = json.dumps(normalized(graded.document), indent=2)
    assert json.dumps(normalized(read_results(merged_dir / "results.json").to_json()), indent=2) == single
    # grades.csv carries no timings: byte for byte.
    assert (merged_dir / "grades.csv").read_bytes() == (graded.out_dir / "grades.csv").read_bytes()
    assert sorted(p.name for p in (merged_dir / "junit").iterdir()) == \
        sorted(p.name for p in (graded.out_dir / "junit").iterdir())
    timing = re.compile(r"\(\d+\.\d\d s\)")
    for feedback in (graded.out_dir / "feedback").iterdir():
        merged = (merged_dir / "feedback" / feedback.name).read_text()
        assert timing.sub("", merged) == timing.sub("", feedback.read_text())
    assert (merged_dir / "report.html").is_file()


def test_round_trip_of_the_results_model(graded: Graded) -> None:
    assert results_from_json(graded.document).to_json() == graded.document


def test_a_submission_in_two_slices_is_refused_unless_replace(graded: Graded, tmp_path: Path) -> None:
    first = graded.out_dir / "results.json"
    with pytest.raises(ConfigError, match=r"::\$\.submissions\[0\]\.id: submission 'compile-error' is also in"):
        merge_files(tmp_path / "merged", [first, first])
    assert not (tmp_path / "merged").exists()  # nothing written for a refused merge


def test_regrade_one_student_and_merge_it_over_the_class(graded: Graded, tmp_path: Path) -> None:
    # The student fixes the illegal move: regrade only them (--only) and merge with --replace.
    fixed = copy_submissions(tmp_path / "class", ["correct"])
    (fixed / "correct").rename(fixed / "illegal-move")
    assert entry(["run", str(fixed), "--testcases", str(TESTSET), "--only", "illegal-move",
                  "--out", str(tmp_path / "regrade"), "--no-progress"]) == 0
    merged = merge_files(tmp_path / "merged", [graded.out_dir / "results.json", tmp_path / "regrade" / "results.json"],
                         replace=True)
    scores = {s.id: s.score for s in merged.submissions}
    assert scores == {"compile-error": 0.0, "correct": 6.0, "illegal-move": 6.0, "suboptimal": 4.0}


def test_slices_of_different_test_sets_are_refused(graded: Graded, tmp_path: Path) -> None:
    other = graded.document
    other["cases"][1]["points"] = 5
    other["submissions"] = []
    with pytest.raises(ConfigError, match=r"b\.json::\$\.cases: differs from a\.json"):
        merge_results([graded.results, results_from_json(other)], ["a.json", "b.json"])


@pytest.mark.parametrize("content, message", [
    ("{", r"bad\.json::\$: not valid JSON: Expecting property name"),
    ('{"format_version": 1}', r"bad\.json::\$\.assignment: missing \(a required key\)"),
    ('{"format_version": 3, "testset": "t", "assignment": {}, "cases": [], "max_score": 0, "submissions": [], '
     '"interrupted": false, "isolation": []}', r"bad\.json::\$\.format_version: expected one of 1 or 2, found 3"),
])
def test_bad_results_file_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                             message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert entry(["merge", str(tmp_path / "out"), str(bad)]) == 3
    assert re.search(message, capsys.readouterr().err)
