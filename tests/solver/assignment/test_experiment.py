"""The experiment: its measurements are right, its tables and plot are written, bad options are refused."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.board import Board
from solver.cli import entry, main
from solver.errors import SearchLimitError
from solver.assignment.experiment import (
    Config,
    effective_branching_factor,
    format_tables,
    run_experiment,
    scrambled_boards,
    solved_fractions,
)
from solver.solve import solve
from tests.support import check_golden

DATA = Path(__file__).resolve().parent.parent / "data" / "experiment"
SMALL = Config(seed=5, boards=16, walks=(4, 8, 12, 16), node_limits=(10, 100, 1000), widths=(1, 4))
SMALL_ARGS = ["--seed", "5", "--boards", "16", "--walks", "4,8,12,16", "--limits", "10,100,1000", "--widths", "1,4"]


@pytest.fixture(scope="module")
def trials():
    return run_experiment(SMALL)


def test_depths_are_the_true_distances_and_beam_never_beats_them(trials, table3) -> None:
    assert [t.board for t in trials] == scrambled_boards(SMALL)
    for trial in trials:
        assert trial.depth == table3[trial.board.tiles]
        for moves, _ in trial.beam.values():
            assert moves is None or moves >= trial.depth


def test_solved_within_a_limit_means_a_limited_search_succeeds(trials) -> None:
    # The table counts a board solved under a limit when the full run expanded no more nodes;
    # check that against real limited searches.
    for trial in trials[:8]:
        for limit in SMALL.node_limits:
            try:
                solve(trial.board, "astar", "hamming", limit)
                succeeded = True
            except SearchLimitError:
                succeeded = False
            assert succeeded == (trial.h1 is not None and trial.h1 <= limit)


def test_fractions_grow_with_the_limit_and_h2_beats_h1(trials) -> None:
    fractions = solved_fractions(trials, SMALL)
    for row in fractions.values():
        assert row == sorted(row)
    assert all(h2 >= h1 for h1, h2 in zip(fractions["A* h1"], fractions["A* h2"]))
    assert fractions["A* h2"][-1] == 1.0
    assert sum(t.h2 for t in trials) < sum(t.h1 for t in trials)


def test_effective_branching_factor() -> None:
    assert effective_branching_factor(2 + 4 + 8, 3) == pytest.approx(2.0)
    assert effective_branching_factor(3, 3) == 1.0


def test_command_prints_and_writes_the_tables_and_plot(tmp_path: Path, update_golden: bool) -> None:
    out = tmp_path / "results"
    result = CliRunner().invoke(main, ["experiment", *SMALL_ARGS, "--out", str(out)])
    assert result.exit_code == 0, result.output
    tables = (out / "tables.txt").read_text(encoding="utf-8")
    assert result.output.startswith(tables)
    assert tables == format_tables(run_experiment(SMALL), SMALL)
    check_golden(DATA / "small.tables.txt", tables, update_golden)
    png = (out / "experiment.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert width > 1000 and height > 300


def test_no_plot_writes_only_the_tables(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["experiment", *SMALL_ARGS, "--out", str(tmp_path), "--no-plot"])
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables.txt"]


def test_missing_matplotlib_is_one_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code = entry(["experiment", *SMALL_ARGS, "--out", str(tmp_path)])
    assert code == 2
    assert "the plot needs matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "experiment.png").exists()


@pytest.mark.parametrize(("option", "value"), [("--widths", "1,x"), ("--limits", "0,10"), ("--walks", "")])
def test_bad_lists_are_usage_errors(option: str, value: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["experiment", option, value, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "expected" in result.output


def test_boards_are_repeatable_from_the_seed() -> None:
    assert scrambled_boards(SMALL) == scrambled_boards(SMALL)
    assert scrambled_boards(SMALL) != scrambled_boards(Config(seed=6, boards=16, walks=SMALL.walks))
    assert all(isinstance(b, Board) and b.is_solvable() for b in scrambled_boards(SMALL))
