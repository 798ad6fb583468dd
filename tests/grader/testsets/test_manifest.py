"""load_testset: the manifest interface the grader codes against, and its error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import CaseFileError, ConfigError
from grader.testsets.model import Case, CaseSet, dump_manifest, load_testset
from tests.grader.testsets.helpers import DATA, GOLDEN, TINY, scrub, tiny_copy
from tests.support import check_golden

BAD = sorted((DATA / "manifests" / "bad").glob("*.json"))
GOOD = sorted((DATA / "manifests" / "good").glob("*.json"))


def test_load_tiny_set_gives_every_field() -> None:
    testset = load_testset(TINY)
    assert isinstance(testset, CaseSet)
    assert (testset.root, testset.name, len(testset)) == (TINY, "tiny", 3)
    one, unsolvable, hardest = testset.cases
    assert one == Case(id="one-move", input_path=TINY / "cases" / "one-move.txt", n=3, solvable=True,
                       optimal_moves=1, points=1.0, visibility="visible", time_limit_seconds=5.0,
                       tags=("size:3x3", "depth:0-8"), input="cases/one-move.txt")
    assert (unsolvable.solvable, unsolvable.optimal_moves, unsolvable.time_limit_seconds) == (False, None, None)
    assert (unsolvable.points, unsolvable.visibility) == (2.0, "hidden")
    assert (hardest.points, hardest.visibility, hardest.optimal_moves) == (1.5, "after_due_date", 31)
    assert testset.visible() == (one,)
    assert testset.by_id("hardest") is hardest
    assert testset.total_points == 4.5


def test_load_accepts_the_manifest_path_itself() -> None:
    assert load_testset(TINY / "manifest.json").cases == load_testset(TINY).cases


@pytest.mark.parametrize("manifest", GOOD, ids=[p.stem for p in GOOD])
def test_good_manifests_load(tmp_path: Path, manifest: Path) -> None:
    assert len(load_testset(tiny_copy(tmp_path, manifest))) == 3


@pytest.mark.parametrize("manifest", BAD, ids=[p.stem for p in BAD])
def test_bad_manifest_gives_one_precise_message(tmp_path: Path, manifest: Path, update_golden: bool) -> None:
    root = tiny_copy(tmp_path, manifest)
    with pytest.raises((ConfigError, CaseFileError)) as info:
        load_testset(root)
    message = scrub(str(info.value), root)
    if isinstance(info.value, ConfigError):
        assert message.startswith("<set>/manifest.json::$")
    check_golden(GOLDEN / "manifests" / f"{manifest.stem}.txt", f"{type(info.value).__name__}: {message}\n",
                 update_golden)


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    root = tiny_copy(tmp_path)
    (root / "manifest.json").write_text('{"format_version": 1,\n  "name": "x"\n  "cases": []}\n')
    with pytest.raises(ConfigError) as info:
        load_testset(root)
    assert info.value.json_path == "$"
    assert "line 3, column 3" in info.value.detail


def test_missing_manifest_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no manifest here"):
        load_testset(tmp_path)


def test_dump_manifest_round_trips(tmp_path: Path) -> None:
    testset = load_testset(TINY)
    root = tiny_copy(tmp_path)
    (root / "manifest.json").write_text(dump_manifest(testset.name, testset.cases, testset.description))
    again = load_testset(root)
    assert [(c.id, c.input, c.optimal_moves, c.points, c.visibility, c.time_limit_seconds, c.tags)
            for c in again.cases] == [(c.id, c.input, c.optimal_moves, c.points, c.visibility,
                                       c.time_limit_seconds, c.tags) for c in testset.cases]
    assert again.description == testset.description
