"""The experiment's tables and figure, computed only from the measured runs (:mod:`solver.assignment.experiment`),
and the `python -m solver experiment` command that prints and writes them.

1. the fraction of boards each method solved within each ``maxNodes`` limit, one row per method;
2. nodes expanded by A* h1 and h2 by optimal depth, with the effective branching factor b*
   (``N + 1 = 1 + b* + b*² + … + b*^d``), as in Russell & Norvig's table;
3. per method: the fraction of boards solved under the cap, the mean solution length of the
   boards it solved, and how far above optimal that is;
4. per method: wall time and peak memory of a search, for the time-against-space question.
"""

from __future__ import annotations

import io
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from tabulate import tabulate

from solver.assignment.experiment import DEFAULT_DEPTHS, DEFAULT_LIMITS, DEFAULT_WIDTHS, Config, Trial, run_experiment
from solver.assignment.goals import Goal
from solver.assignment.shell import goal_option
from solver.errors import OutputError, SolverError
from solver.fileio import write_atomic

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

RESOURCES_TITLE = "Time and memory per search"


class PlotUnavailableError(SolverError):
    """The plot was asked for but matplotlib (the ``plot`` extra) is not installed."""

    exit_code = 2


def effective_branching_factor(nodes: float, depth: int) -> float:
    """b* with ``nodes + 1 = 1 + b* + … + b*^depth`` (bisection).

    >>> round(effective_branching_factor(52, 5), 2)
    1.92
    """
    if depth <= 0 or nodes <= depth:
        return 1.0
    low, high = 1.0, max(2.0, nodes)
    for _ in range(100):
        mid = (low + high) / 2
        total = sum(mid ** i for i in range(1, depth + 1))
        low, high = (mid, high) if total < nodes else (low, mid)
    return (low + high) / 2


def solved_fractions(trials: Sequence[Trial], config: Config) -> dict[str, list[float]]:
    """For each method, the fraction of boards it solved within each node limit (a search that
    stopped or failed counts as unsolved; one that solved within ``L`` expansions is solved under ``L``)."""
    out = {}
    for name in config.methods():
        runs = [t.runs[name] for t in trials]
        out[name] = [sum(1 for r in runs if r.solved and r.expanded is not None and r.expanded <= limit) / len(runs)
                     for limit in config.node_limits]
    return out


def nodes_by_depth(trials: Sequence[Trial]) -> list[tuple[int, int, float | None, float | None, float | None,
                                                          float | None]]:
    """Rows (depth, boards, mean A* h1 nodes or ``None`` if the cap stopped any, b* h1, the same for h2)."""
    rows = []
    for depth in sorted({t.depth for t in trials}):
        group = [t for t in trials if t.depth == depth]
        means = []
        for name in ("A* h1", "A* h2"):
            nodes = [expanded for t in group if (expanded := t.runs[name].expanded) is not None]
            means.append(statistics.fmean(nodes) if len(nodes) == len(group) else None)  # None: the cap stopped one
        h1, h2 = means
        rows.append((depth, len(group), h1, None if h1 is None else effective_branching_factor(h1, depth),
                     h2, None if h2 is None else effective_branching_factor(h2, depth)))
    return rows


def solution_lengths(trials: Sequence[Trial], config: Config) -> list[tuple[str, float, float | None, float | None]]:
    """Rows (method, fraction solved under the cap, mean moves of the boards it solved, mean moves
    above optimal on those boards), after a first row for the optimal lengths themselves."""
    rows: list[tuple[str, float, float | None, float | None]] = [
        ("optimal (exact table)", 1.0, statistics.fmean(t.depth for t in trials), 0.0)]
    for name in config.methods():
        solved = [(moves, t.depth) for t in trials if t.runs[name].solved and (moves := t.runs[name].moves) is not None]
        rows.append((name, len(solved) / len(trials),
                     statistics.fmean(m for m, _ in solved) if solved else None,
                     statistics.fmean(m - d for m, d in solved) if solved else None))
    return rows


def resources(trials: Sequence[Trial], config: Config) -> list[tuple[str, float, float, float | None, float | None]]:
    """Rows (method, mean ms per search, slowest ms, mean peak KiB, largest peak KiB) over every board."""
    rows = []
    for name in config.methods():
        runs = [t.runs[name] for t in trials]
        seconds = [r.seconds for r in runs]
        peaks = [r.peak_bytes for r in runs if r.peak_bytes is not None]
        rows.append((name, 1000 * statistics.fmean(seconds), 1000 * max(seconds),
                     statistics.fmean(peaks) / 1024 if peaks else None, max(peaks) / 1024 if peaks else None))
    return rows


def _num(value: float | None, digits: int = 1, missing: str = "-") -> str:
    return missing if value is None else f"{value:,.{digits}f}"


def format_tables(trials: Sequence[Trial], config: Config) -> str:
    """The four tables as text, with a header naming the configuration. Everything before
    :data:`RESOURCES_TITLE` depends only on the configuration; the last table holds times and memory."""
    cap = config.cap
    fractions = solved_fractions(trials, config)
    table1 = tabulate([[name] + [f"{f:.2f}" for f in row] for name, row in fractions.items()],
                      headers=["maxNodes:"] + [f"{limit:,}" for limit in config.node_limits],
                      tablefmt="github", disable_numparse=True)
    table2 = tabulate([[d, count, _num(h1, missing=f"> {cap:,}"), _num(b1, 2), _num(h2, missing=f"> {cap:,}"),
                        _num(b2, 2)] for d, count, h1, b1, h2, b2 in nodes_by_depth(trials)],
                      headers=["depth", "boards", "nodes A* h1", "b* h1", "nodes A* h2", "b* h2"],
                      tablefmt="github", disable_numparse=True)
    table3 = tabulate([[name, f"{fraction:.2f}", _num(moves), _num(excess)]
                       for name, fraction, moves, excess in solution_lengths(trials, config)],
                      headers=["search", "solved", "mean moves (solved)", "above optimal (solved)"],
                      tablefmt="github", disable_numparse=True)
    table4 = tabulate([[name, _num(mean, 2), _num(worst, 2), _num(peak), _num(top)]
                       for name, mean, worst, peak, top in resources(trials, config)],
                      headers=["search", "mean ms", "max ms", "mean peak KiB", "max peak KiB"],
                      tablefmt="github", disable_numparse=True)
    depths = sorted(set(config.depths))
    span = f"{depths[0]}" if len(depths) == 1 else f"{depths[0]} to {depths[-1]}"
    goal = " ".join("".join(str(t) if t else "b" for t in row) for row in config.goal.board(3).rows())
    memory = "" if config.memory else " (memory not measured: --no-memory)"
    return (f"{len(trials)} random 3x3 boards from seed {config.seed}, optimal depths {span} "
            f"(mean {statistics.fmean(t.depth for t in trials):.1f}), goal {goal}; every search capped at "
            f"maxNodes {cap:,}; beam search keeps k states per step, ranked by h2.\n\n"
            f"Fraction of boards solved within maxNodes\n\n{table1}\n\n"
            f"Nodes expanded by A*, by optimal solution depth (b* = effective branching factor)\n\n{table2}\n\n"
            f"Solution lengths and fraction solved (within maxNodes {cap:,})\n\n{table3}\n\n"
            f"{RESOURCES_TITLE} (every board, solved or not){memory}\n\n{table4}\n")


def plot_png(trials: Sequence[Trial], config: Config) -> bytes:
    """The figure (four panels, one per table) as PNG bytes. Needs matplotlib, imported here only."""
    figure = build_figure(trials, config)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def build_figure(trials: Sequence[Trial], config: Config) -> Figure:
    """The four panels, each with a legend naming what its lines or bars are."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailableError("the plot needs matplotlib: pip install 'npuzzle-grader[plot]', "
                                   "or pass --no-plot") from None
    figure = Figure(figsize=(20, 4.8), layout="constrained")
    FigureCanvasAgg(figure)
    solved_ax, nodes_ax, length_ax, cost_ax = figure.subplots(1, 4)

    for name, fractions in solved_fractions(trials, config).items():
        solved_ax.plot(config.node_limits, fractions, marker="o", label=name)
    solved_ax.set(xscale="log", xlabel="maxNodes", ylabel="fraction solved", ylim=(-0.02, 1.02),
                  title="Boards solved within maxNodes")
    solved_ax.legend(fontsize="small")

    rows = nodes_by_depth(trials)
    for label, column in (("A* h1 (misplaced)", 2), ("A* h2 (Manhattan)", 4)):
        points = [(row[0], value) for row in rows if (value := row[column]) is not None]
        nodes_ax.plot([d for d, _ in points], [max(v, 1) for _, v in points], marker="o", label=label)
    nodes_ax.set(yscale="log", xlabel="optimal solution depth", ylabel="mean nodes expanded",
                 title="Nodes expanded: h1 vs h2")
    nodes_ax.legend(fontsize="small")
    _lengths_panel(length_ax, trials, config)
    _cost_panel(cost_ax, trials, config)
    return figure


def _lengths_panel(length_ax: Axes, trials: Sequence[Trial], config: Config) -> None:
    lengths = solution_lengths(trials, config)
    kinds = ["optimal (exact table)"] + ["A*"] * 2 + ["beam search"] * len(config.widths)
    colors = {"optimal (exact table)": "tab:gray", "A*": "tab:green", "beam search": "tab:blue"}
    bars = length_ax.bar([r[0].replace(" (exact table)", "") for r in lengths], [r[2] or 0.0 for r in lengths],
                         color=[colors[k] for k in kinds[:len(lengths)]])
    named: set[str] = set()
    for bar, kind, (_, fraction, _, _) in zip(bars, kinds, lengths):
        bar.set_label(kind if kind not in named else "_nolegend_")  # one legend entry per kind
        named.add(kind)
        length_ax.annotate(f"{fraction:.0%}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                           ha="center", va="bottom", fontsize="small")
    length_ax.set(ylabel="mean moves (boards solved)", title="Solution length (% solved on top)")
    length_ax.tick_params(axis="x", labelrotation=30)
    length_ax.legend(fontsize="small")


def _cost_panel(cost_ax: Axes, trials: Sequence[Trial], config: Config) -> None:
    """Time bars on the left axis, memory bars on a twin right axis; one legend names both."""
    costs = resources(trials, config)
    names = [r[0] for r in costs]
    positions = list(range(len(names)))
    cost_ax.bar([p - 0.2 for p in positions], [r[1] for r in costs], width=0.4, label="mean ms (left axis)",
                color="tab:orange")
    cost_ax.set(yscale="log", ylabel="mean ms per search", title="Time (bars left) and memory (right)")
    cost_ax.set_xticks(positions, names, rotation=30)
    handles, labels = cost_ax.get_legend_handles_labels()
    peaks = [r[3] for r in costs if r[3] is not None]
    if len(peaks) == len(costs):
        memory_ax = cost_ax.twinx()
        memory_ax.bar([p + 0.2 for p in positions], peaks, width=0.4, color="tab:purple",
                      label="mean peak KiB (right axis)")
        memory_ax.set(yscale="log", ylabel="mean peak KiB")
        more_handles, more_labels = memory_ax.get_legend_handles_labels()
        # the twin is drawn on top, so the legend of both goes there, where no bar hides it
        memory_ax.legend(handles + more_handles, labels + more_labels, fontsize="small")
    else:
        cost_ax.legend(fontsize="small")


# --------------------------------------------------------------------------- the command
def _int_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        numbers = tuple(int(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected comma-separated whole numbers, found {value!r}") from None
    least, most = (0, 31) if param.name == "depths" else (1, None)
    if not numbers or min(numbers) < least or (most is not None and max(numbers) > most):
        span = f"from {least} to {most}" if most is not None else "of at least 1"
        raise click.BadParameter(f"expected whole numbers {span}, found {value!r}")
    return numbers


@click.command("experiment")
@click.option("--seed", type=int, default=Config.seed, show_default=True, help="Seed for the random boards.")
@click.option("--boards", type=click.IntRange(min=1), default=Config.boards, show_default=True,
              help="How many random boards, spread evenly over the depths.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="experiment-results",
              show_default=True, help="Folder for tables.txt and experiment.png.")
@click.option("--depths", default=",".join(map(str, DEFAULT_DEPTHS)), show_default=True, callback=_int_list,
              help="Optimal solution depths (0..31) of the boards, used in turn.")
@click.option("--limits", default=",".join(map(str, DEFAULT_LIMITS)), show_default=True, callback=_int_list,
              help="maxNodes values for the solved-fraction table; the largest caps every search.")
@click.option("--widths", default=",".join(map(str, DEFAULT_WIDTHS)), show_default=True, callback=_int_list,
              help="Beam widths k (states kept at each step) to compare with A*.")
@goal_option
@click.option("--memory/--no-memory", default=True, show_default=True,
              help="Measure each search's peak memory (a second run of each search under tracemalloc).")
@click.option("--plot/--no-plot", default=True, show_default=True, help="Write experiment.png (needs matplotlib).")
def experiment(seed: int, boards: int, out_dir: str, depths: tuple[int, ...], limits: tuple[int, ...],
               widths: tuple[int, ...], goal: Goal, memory: bool, plot: bool) -> int:
    """Answer the command sheet's experiment questions on random 8-puzzles of every depth.

    Prints four tables (fraction solved by maxNodes for each method; nodes expanded by A*
    h1 and h2 by depth; solution lengths and fraction solved per method; time and memory
    per method) and writes them to OUT/tables.txt, with a figure in OUT/experiment.png.
    """
    config = Config(seed=seed, boards=boards, depths=depths, node_limits=tuple(sorted(limits)), widths=widths,
                    goal=goal, memory=memory)
    trials = run_experiment(config)
    text = format_tables(trials, config)
    png = plot_png(trials, config) if plot else None
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{out}: cannot create the folder: {exc.strerror or exc}") from None
    write_atomic(out / "tables.txt", text)
    if png is not None:
        write_atomic(out / "experiment.png", png)
    sys.stdout.write(text)
    click.echo(f"\nWrote {out / 'tables.txt'}" + (f" and {out / 'experiment.png'}" if png else ""))
    return 0
