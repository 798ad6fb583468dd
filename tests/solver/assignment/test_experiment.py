"""The experiment: boards of every depth, measurements that are right, tables built only from them, bad options
refused."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.assignment.beam import beam_search
from solver.assignment.experiment import Config, run_experiment, study_boards
from solver.assignment.experiment_report import (
    RESOURCES_TITLE,
    effective_branching_factor,
    format_tables,
    resources,
    solution_lengths,
    solved_fractions,
)
from solver.assignment.goals import Goal
from solver.board import Board
from solver.cli import entry, main
from solver.errors import SearchLimitError
from solver.solve import solve
from tests.support import check_golden

DATA = Path(__file__).resolve().parent.parent / "data" / "experiment"
SMALL = Config(seed=5, boards=16, depths=(4, 10, 16, 31), node_limits=(10, 100, 1000), widths=(1, 4))
SMALL_ARGS = ["--seed", "5", "--boards", "16", "--depths", "4,10,16,31", "--limits", "10,100,1000", "--widths", "1,4"]


@pytest.fixture(scope="module")
def trials():
    return run_experiment(SMALL)


def test_boards_have_the_depths_asked_for_under_the_sheets_goal(trials, table3) -> None:
    assert [(t.board, t.depth) for t in trials] == study_boards(SMALL)
    assert [t.depth for t in trials] == [SMALL.depths[i % 4] for i in range(16)]
    # No board twice while a depth has enough; the 8-puzzle has only two boards 31 moves from a goal.
    assert len({t.board for t in trials if t.depth != 31}) == 12
    assert len({t.board for t in trials if t.depth == 31}) == 2
    for trial in trials:
        # The board is written for the goal b12 345 678: mirrored, it is that far from 123 456 78b.
        assert table3[trial.board.standardized(blank_first=True).tiles] == trial.depth


def test_the_default_boards_cover_every_depth_up_to_31() -> None:
    depths = [depth for _, depth in study_boards(Config())]
    assert set(depths) == set(range(2, 32)) and len(depths) == Config().boards
    assert abs(sum(depths) / len(depths) - 16.5) < 0.5


def test_the_goal_option_writes_the_same_boards_for_the_other_goal() -> None:
    first = study_boards(SMALL)
    last = study_boards(Config(**{**SMALL.__dict__, "goal": Goal.BLANK_LAST}))
    assert [(b.standardized(blank_first=True), d) for b, d in first] == last


def test_each_run_is_what_a_search_with_that_limit_does(trials) -> None:
    # A run says solved within L expansions exactly when a search limited to L succeeds.
    for trial in trials[::3]:
        start = trial.board.standardized(blank_first=True)
        for limit in SMALL.node_limits:
            for name, search in (("A* h1", lambda start=start, limit=limit: solve(start, "astar", "hamming", limit)),
                                 ("beam 4", lambda start=start, limit=limit: beam_search(start, 4, limit))):
                run = trial.runs[name]
                try:
                    result = search()
                    succeeded = result.path is not None
                except SearchLimitError:
                    succeeded = False
                assert succeeded == (run.solved and run.expanded <= limit), (trial.board, name, limit)
        for name, run in trial.runs.items():
            assert run.seconds > 0 and run.peak_bytes > 0
            assert not run.solved or run.moves >= trial.depth
            assert not name.startswith("A*") or not run.solved or run.moves == trial.depth


def test_fractions_are_measured_per_method_and_agree_between_tables(trials) -> None:
    fractions = solved_fractions(trials, SMALL)
    assert list(fractions) == ["A* h1", "A* h2", "beam 1", "beam 4"]
    for row in fractions.values():
        assert row == sorted(row)
    assert all(h2 >= h1 for h1, h2 in zip(fractions["A* h1"], fractions["A* h2"]))
    lengths = {name: solved for name, solved, _, _ in solution_lengths(trials, SMALL)}
    assert {name: row[-1] for name, row in fractions.items()} == {k: v for k, v in lengths.items()
                                                                   if not k.startswith("optimal")}
    # The cap of 1,000 nodes stops A* on the 31-move boards: no row may claim every board was solved.
    assert lengths["A* h1"] < 1.0 and lengths["A* h2"] < 1.0
    assert lengths["optimal (exact table)"] == 1.0


def test_time_and_memory_have_a_row_per_method(trials) -> None:
    rows = resources(trials, SMALL)
    assert [row[0] for row in rows] == SMALL.methods()
    for _, mean_ms, max_ms, mean_kib, max_kib in rows:
        assert 0 < mean_ms <= max_ms and 0 < mean_kib <= max_kib
    h1, h2 = rows[0], rows[1]
    assert h2[3] < h1[3]  # h2 stores fewer nodes than h1 on the same boards


def test_effective_branching_factor() -> None:
    assert effective_branching_factor(2 + 4 + 8, 3) == pytest.approx(2.0)
    assert effective_branching_factor(3, 3) == 1.0


def test_command_prints_and_writes_the_tables_and_plot(trials, tmp_path: Path, update_golden: bool) -> None:
    out = tmp_path / "results"
    result = CliRunner().invoke(main, ["experiment", *SMALL_ARGS, "--out", str(out)])
    assert result.exit_code == 0, result.output
    tables = (out / "tables.txt").read_text(encoding="utf-8")
    assert result.output.startswith(tables)
    measured, resources_table = tables.split(RESOURCES_TITLE)
    assert measured == format_tables(trials, SMALL).split(RESOURCES_TITLE)[0]
    check_golden(DATA / "small.tables.txt", measured, update_golden)  # times and memory vary: not golden
    assert all(f"| {name} " in resources_table for name in SMALL.methods())
    png = (out / "experiment.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert width > 1500 and height > 300


@pytest.mark.parametrize("memory", [True, False])
def test_every_panel_has_a_legend_naming_each_of_its_lines_and_bars(trials, memory: bool) -> None:
    from dataclasses import replace

    from solver.assignment.experiment_report import build_figure

    if not memory:  # as with --no-memory: no peaks, so the time panel has no memory axis
        trials = [replace(t, runs={name: replace(run, peak_bytes=None) for name, run in t.runs.items()})
                  for t in trials]
    figure = build_figure(trials, SMALL)
    panels: dict[tuple[float, ...], list] = {}  # a twin axis shares its panel's place
    for ax in figure.axes:
        panels.setdefault(tuple(ax.get_position().bounds), []).append(ax)
    assert len(panels) == 4 and len(figure.axes) == (5 if memory else 4)
    for axes in panels.values():
        shown = {text.get_text() for ax in axes if ax.get_legend() for text in ax.get_legend().get_texts()}
        drawn = {artist.get_label() for ax in axes for artist in [*ax.lines, *ax.patches, *ax.containers]
                 if not artist.get_label().startswith("_")}
        assert drawn and drawn <= shown, (axes[0].get_title(), drawn, shown)


def test_no_plot_no_memory_writes_only_the_tables(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["experiment", *SMALL_ARGS, "--out", str(tmp_path), "--no-plot", "--no-memory"])
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables.txt"]
    resources_table = (tmp_path / "tables.txt").read_text().split(RESOURCES_TITLE)[1]
    assert "memory not measured" in resources_table
    assert all(line.endswith("| -               | -              |")
               for line in resources_table.splitlines() if line.startswith("| beam") or line.startswith("| A*"))


def test_missing_matplotlib_is_one_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code = entry(["experiment", *SMALL_ARGS, "--no-memory", "--out", str(tmp_path)])
    assert code == 2
    assert "the plot needs matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "experiment.png").exists()


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--widths", "1,x", "expected comma-separated whole numbers"),
    ("--limits", "0,10", "expected whole numbers of at least 1"),
    ("--depths", "", "expected comma-separated whole numbers"),
    ("--depths", "4,32", "expected whole numbers from 0 to 31"),
    ("--goal", "sideways", "expected blank-first"),
])
def test_bad_options_are_usage_errors(option: str, value: str, message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["experiment", option, value, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.output


def test_boards_are_repeatable_from_the_seed() -> None:
    assert study_boards(SMALL) == study_boards(SMALL)
    assert study_boards(SMALL) != study_boards(Config(**{**SMALL.__dict__, "seed": 6}))
    assert all(isinstance(b, Board) for b, _ in study_boards(SMALL))
