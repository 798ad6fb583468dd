"""grade testcases generate: deterministic for a seed, every kind of case, every count certified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.testsets.certify import STYLES, format_board
from grader.testsets.generate import Bucket
from grader.testsets.model import load_testset
from solver.board import Board
from solver.formats import parse_puzzle
from tests.grader.testsets.helpers import grade

SMALL = ("--random-3x3", "3", "--bucket", "4:12-16:1", "--deep-4x4", "0", "--two-by-two", "1",
         "--unsolvable", "2,3", "--solved-sizes", "3", "--no-corners", "--name", "small", "-q")


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _boards(root: Path) -> dict[str, tuple[int, ...]]:
    return {case.id: parse_puzzle(case.input_path.read_bytes()).tiles for case in load_testset(root).cases}


@pytest.fixture(scope="module")
def default_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gen") / "default"
    from grader.cli import entry

    assert entry(["testcases", "generate", str(root), "--seed", "42", "-q"]) == 0
    return root


def test_same_seed_same_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("a", "b"):
        code, _, err = grade(capsys, "testcases", "generate", tmp_path / folder, "--seed", "s1", *SMALL)
        assert code == 0, err
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    code, _, _ = grade(capsys, "testcases", "generate", tmp_path / "c", "--seed", "s2", *SMALL)
    assert _boards(tmp_path / "c") != _boards(tmp_path / "a")


def test_default_plan_has_every_kind_of_case(default_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = load_testset(default_set).cases
    by_tag = lambda tag: [c for c in cases if tag in c.tags]  # noqa: E731
    assert {c.n for c in cases} == {2, 3, 4, 5}
    assert len(by_tag("random")) == 3 + 12
    assert [c.optimal_moves for c in by_tag("edge:hardest-3x3")] == [31, 31]
    assert [c.optimal_moves for c in by_tag("edge:solved")] == [0, 0]
    corners = {c.id: parse_puzzle(c.input_path.read_bytes()).blank for c in cases if c.id.startswith("3x3-corner")}
    assert corners == {"3x3-corner-tl": 0, "3x3-corner-tr": 2, "3x3-corner-bl": 6, "3x3-corner-br": 8}
    assert sorted(c.n for c in by_tag("unsolvable")) == [2, 3, 3, 4, 4, 5]
    assert all(not c.solvable and c.optimal_moves is None for c in by_tag("unsolvable"))
    hard = by_tag("hard")
    assert len(hard) == 2 and all(c.n == 4 and 50 <= c.optimal_moves <= 56 for c in hard)
    assert all(c.time_limit_seconds == 30 and c.visibility == "hidden" for c in hard)
    for bucket in Bucket(4, 20, 29, 2), Bucket(4, 30, 39, 2), Bucket(5, 20, 29, 1), Bucket(5, 30, 39, 1):
        found = [c for c in cases if c.id.startswith(f"{bucket.n}x{bucket.n}-d{bucket.lo}-{bucket.hi}-")]
        assert len(found) == bucket.count and all(bucket.lo <= c.optimal_moves <= bucket.hi for c in found)
    assert {c.visibility for c in cases} == {"visible", "hidden"}
    code, out, err = grade(capsys, "testcases", "validate", default_set)
    assert code == 0, out + err


def test_deep_only_makes_the_full_plans_deep_boards_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """How testcases/cmpe160-hard is made: the deep tier of a seed, as its own set."""
    deep = ("--deep-4x4", "2", "--deep-range", "30-36", "-q")
    code, _, err = grade(capsys, "testcases", "generate", tmp_path / "full", "--seed", "s1", *SMALL[:4],
                         "--two-by-two", "1", "--unsolvable", "2", *deep)
    assert code == 0, err
    code, _, err = grade(capsys, "testcases", "generate", tmp_path / "deep", "--seed", "s1", "--deep-only", *deep)
    assert code == 0, err
    full, alone = (json.loads((tmp_path / name / "manifest.json").read_text())["cases"] for name in ("full", "deep"))
    wanted = [c for c in full if c["id"].startswith("4x4-d30-36-")]
    assert len(wanted) == 2 and len(full) > 2 and alone == wanted
    assert all(30 <= c["optimal_moves"] <= 36 for c in alone)
    files = _files(tmp_path / "deep")
    assert {k: v for k, v in files.items() if k.startswith("cases/")} == \
        {k: v for k, v in _files(tmp_path / "full").items() if k.startswith("cases/4x4-d30-36-")}


@pytest.mark.parametrize("extra, message", [(("--bucket", "4:20-29:1"), "found --bucket as well"),
                                            (("--no-corners", "--random-3x3", "2"),
                                             "found --random-3x3, --corners/--no-corners as well"),
                                            (("--deep-4x4", "0"), "needs at least one deep board")])
def test_deep_only_refuses_the_other_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            extra: tuple[str, ...], message: str) -> None:
    code, _, err = grade(capsys, "testcases", "generate", tmp_path, "--seed", "s1", "--deep-only", *extra)
    assert code == 2 and message in err
    assert not (tmp_path / "manifest.json").exists()


@pytest.mark.parametrize("style", ["padded", "crlf"])
def test_styles_hold_the_same_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str], style: str) -> None:
    grade(capsys, "testcases", "generate", tmp_path / "plain", "--seed", "s1", *SMALL)
    code, _, _ = grade(capsys, "testcases", "generate", tmp_path / style, "--seed", "s1", "--style", style, *SMALL)
    assert code == 0
    assert _boards(tmp_path / style) == _boards(tmp_path / "plain")
    text = (tmp_path / style / "cases" / "3x3-rand-01.txt").read_bytes()
    if style == "padded":
        rows = text.decode().splitlines()[1:]
        assert all(row.startswith(" ") and row.endswith(" ") and len(row) == 9 for row in rows)
    else:
        assert text.count(b"\r\n") == 3 and not text.endswith(b"\n")


def test_refuses_to_overwrite_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grade(capsys, "testcases", "generate", tmp_path, "--seed", "s1", *SMALL)
    code, _, err = grade(capsys, "testcases", "generate", tmp_path, "--seed", "s2", *SMALL)
    assert code == 6 and "use --force" in err
    (tmp_path / "cases" / "3x3-rand-01.txt").unlink()  # the old file is gone; --force must not mind
    code, _, err = grade(capsys, "testcases", "generate", tmp_path, "--seed", "s2", "--random-3x3", "1",
                         *SMALL[2:], "--force")
    assert code == 0, err
    assert not (tmp_path / "cases" / "3x3-rand-03.txt").exists(), "stale files of the old set are removed"
    assert grade(capsys, "testcases", "validate", tmp_path)[0] == 0


@pytest.mark.parametrize("bucket, message", [("3:40-45:1", "no 3x3 board needs more than 31 moves"),
                                             ("4:30-20:1", "expected N >= 3 and LO <= HI"),
                                             ("4:30:1", "expected N:LO-HI:COUNT")])
def test_impossible_bucket_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], bucket: str,
                                            message: str) -> None:
    code, _, err = grade(capsys, "testcases", "generate", tmp_path, "--seed", "1", "--bucket", bucket)
    assert code == 2 and message in err


@given(st.integers(2, 11).flatmap(lambda n: st.permutations(range(n * n)).map(lambda t: Board(tuple(t), n))),
       st.sampled_from(STYLES))
def test_every_style_parses_back_to_the_board(board: Board, style: str) -> None:
    assert parse_puzzle(format_board(board, style)) == board
