"""--shard i/n: deterministic round-robin slices that cover every submission exactly once."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.cli import entry
from grader.shard import Shard, parse_shard, shard_from_environment


@pytest.mark.parametrize("text, expected", [("1/1", Shard(1, 1)), ("2/5", Shard(2, 5)), (" 3 / 3 ", Shard(3, 3))])
def test_parse_accepts_i_of_n(text: str, expected: Shard) -> None:
    assert parse_shard(text) == expected


@pytest.mark.parametrize("text, fragment", [("0/3", "1 <= i <= n"), ("4/3", "1 <= i <= n"), ("1/0", "1 <= i <= n"),
                                            ("2", "expected a shard as i/n"), ("a/b", "expected a shard as i/n"),
                                            ("-1/2", "expected a shard as i/n")])
def test_parse_rejects_with_the_expected_form(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment.replace("<", ".").replace("=", ".")):
        parse_shard(text)


@given(ids=st.sets(st.text(min_size=1, max_size=8), max_size=40), count=st.integers(1, 7))
def test_slices_partition_the_class_and_balance(ids: set[str], count: int) -> None:
    slices = [Shard(i, count).select(ids) for i in range(1, count + 1)]
    flat = [sid for part in slices for sid in part]
    assert sorted(flat) == sorted(ids)  # every id exactly once
    assert max(map(len, slices)) - min(map(len, slices)) <= 1


def test_slice_does_not_depend_on_listing_order() -> None:
    ids = ["delta", "alpha", "echo", "charlie", "bravo"]
    assert Shard(2, 2).select(ids) == Shard(2, 2).select(reversed(ids)) == ["bravo", "delta"]


def test_bad_shard_is_a_usage_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert entry(["run", str(tmp_path), "--shard", "3/2"]) == 2
    assert "expected i/n with 1 <= i <= n, found 3/2" in capsys.readouterr().err


@pytest.mark.parametrize("env, expected", [
    ({"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
      "SLURM_ARRAY_TASK_MAX": "3"}, Shard(1, 4)),
    ({"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "5",
      "SLURM_ARRAY_TASK_MAX": "7"}, Shard(3, 3)),   # --array=5-7
    ({"JOB_COMPLETION_INDEX": "2", "NPUZZLE_SHARD_COUNT": "3"}, Shard(3, 3)),
    ({"NPUZZLE_SHARD_INDEX": "0", "NPUZZLE_SHARD_COUNT": "2"}, Shard(1, 2)),   # a matrix's strategy.job-index
    ({"NPUZZLE_SHARD": "2/5"}, Shard(2, 5)),
    ({"NPUZZLE_SHARD": "2/2", "NPUZZLE_SHARD_INDEX": "1", "NPUZZLE_SHARD_COUNT": "2"}, Shard(2, 2)),  # agree
])
def test_auto_reads_the_engines_variables(env: dict[str, str], expected: Shard) -> None:
    assert shard_from_environment(env) == expected


@pytest.mark.parametrize("env, fragment", [
    ({}, "found no slice in the environment: expected SLURM_ARRAY_TASK_ID"),
    ({"JOB_COMPLETION_INDEX": "1"}, "NPUZZLE_SHARD_COUNT is not"),
    ({"JOB_COMPLETION_INDEX": "3", "NPUZZLE_SHARD_COUNT": "3"}, "needs 0 <= index < NPUZZLE_SHARD_COUNT=3"),
    ({"SLURM_ARRAY_TASK_ID": "1"}, "SLURM_ARRAY_TASK_COUNT is not"),
    ({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0",
      "SLURM_ARRAY_TASK_MAX": "4"}, "one range with step 1"),   # --array=0-4:2
    ({"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"}, "should be a whole number"),
    ({"NPUZZLE_SHARD": "1/2", "NPUZZLE_SHARD_INDEX": "1", "NPUZZLE_SHARD_COUNT": "2"}, "different slices"),
])
def test_auto_explains_what_is_missing_or_wrong(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ValueError, match=re.escape(fragment)):
        shard_from_environment(env)


def test_auto_without_variables_is_a_usage_error(tmp_path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "NPUZZLE_SHARD", "NPUZZLE_SHARD_INDEX"):
        monkeypatch.delenv(name, raising=False)
    assert entry(["run", str(tmp_path), "--shard", "auto"]) == 2
    assert "found no slice in the environment" in capsys.readouterr().err
