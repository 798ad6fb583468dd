"""grade merge refuses slices that do not make one run: missing, repeated, split differently, or from another
test set, each named; --allow-partial merges what is there and records what is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.cli import entry
from grader.pipeline import grade
from tests.grader.sampleclass import SLICES as COUNT
from tests.grader.sampleclass import SUBMISSIONS, TESTSET


@pytest.fixture
def slices(sample_slices: list[Path]) -> list[Path]:
    """The sample class's three slices (graded once per session; these tests only read them)."""
    return sample_slices


def _merge(capsys: pytest.CaptureFixture[str], out: Path, *paths: Path, flags: tuple[str, ...] = ()) -> tuple[int, str]:
    code = entry(["merge", str(out), *map(str, paths), *flags])
    return code, capsys.readouterr().err


def _edited(path: Path, target: Path, **changes: object) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    document.update(changes)
    target.write_text(json.dumps(document), encoding="utf-8")
    return target


def test_each_slice_records_its_shard_and_the_testset_hash(slices: list[Path]) -> None:
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in slices]
    assert [d["shard"] for d in documents] == [{"index": i, "count": COUNT} for i in range(1, COUNT + 1)]
    assert len({d["testset_hash"] for d in documents}) == 1 and len(documents[0]["testset_hash"]) == 64


def test_a_missing_slice_is_refused_and_named(slices: list[Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _merge(capsys, tmp_path / "out", slices[0], slices[2])
    assert code == 9
    assert f"slice 2/{COUNT} of {COUNT} is missing (given: 1/{COUNT} ({slices[0]}), 3/{COUNT} ({slices[2]}))" in err
    assert "--allow-partial" in err and not (tmp_path / "out").exists()


def test_allow_partial_merges_and_records_the_missing_slice(slices: list[Path], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _merge(capsys, tmp_path / "out", slices[0], slices[2], flags=("--allow-partial",))
    assert code == 0 and f"warning: slice 2/{COUNT} missing" in err
    merged = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert merged["missing_slices"] == [f"2/{COUNT}"] and merged["shard"] is None
    expected = {s["id"] for p in (slices[0], slices[2]) for s in json.loads(p.read_text())["submissions"]}
    assert {s["id"] for s in merged["submissions"]} == expected


def test_a_repeated_slice_is_refused(slices: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _merge(capsys, tmp_path / "out", *slices, slices[1])
    assert code == 9 and f"slice 2/{COUNT} is given twice: {slices[1]} and {slices[1]}" in err


def test_slices_split_differently_are_refused(slices: list[Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    odd = _edited(slices[1], tmp_path / "odd.json", shard={"index": 2, "count": 4})
    code, err = _merge(capsys, tmp_path / "out", slices[0], odd, slices[2])
    assert code == 9 and "the slices come from runs split differently" in err and f"{odd} is 2/4" in err


def test_a_slice_of_another_test_set_is_refused(slices: list[Path], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    other = _edited(slices[2], tmp_path / "other.json", testset_hash="0" * 64)
    code, err = _merge(capsys, tmp_path / "out", slices[0], slices[1], other)
    assert code == 9 and f"{other} was graded on another test set or assignment than {slices[0]}" in err


def test_a_whole_run_mixed_with_slices_needs_replace(slices: list[Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    whole = tmp_path / "whole"
    grade(SUBMISSIONS, TESTSET, whole, jobs=2, only=["correct"])
    code, err = _merge(capsys, tmp_path / "out", *slices, whole / "results.json")
    assert code == 9 and "is a whole run but" in err
    # A regrade laid over every slice is what --replace is for.
    code, _ = _merge(capsys, tmp_path / "out", *slices, whole / "results.json", flags=("--replace",))
    assert code == 0
