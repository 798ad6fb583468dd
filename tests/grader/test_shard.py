"""--shard i/n: deterministic round-robin slices that cover every submission exactly once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.cli import entry
from grader.shard import Shard, parse_shard


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
