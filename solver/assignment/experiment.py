"""``python -m solver experiment``: the classic study of A* heuristics and beam search on the 8-puzzle.

From one seed, it scrambles many boards by random walks from the goal (never undoing
the previous move) and measures, for each board:

- A* with h1 (misplaced tiles) and h2 (Manhattan): nodes expanded, up to the largest
  node limit;
- beam search at several widths: whether it reached the goal, the path length, the
  nodes expanded.

Three tables come out of that (and one figure with a panel for each):

1. the fraction of boards solved as the node limit grows (a search succeeds under a
   limit exactly when its full run expanded no more nodes, since searches are
   deterministic, so each board is searched once);
2. nodes expanded by h1 and h2 by optimal solution depth, with the effective branching
   factor b* (``N + 1 = 1 + b* + b*² + … + b*^d``), as in Russell & Norvig's table;
3. solution lengths of A* (optimal) and of beam search at each width.

The measuring is pure (:func:`run_experiment` returns data); printing and files are in
the click command at the end.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import click
from tabulate import tabulate

from solver.assignment.beam import SOLVED, beam_search
from solver.board import Board
from solver.errors import SearchLimitError, SolverError
from solver.fileio import write_atomic
from solver.search.result import SearchResult
from solver.solve import solve

DEFAULT_WALKS = tuple(range(2, 31, 2))
DEFAULT_LIMITS = (30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
DEFAULT_WIDTHS = (1, 3, 10, 50)


class PlotUnavailableError(SolverError):
    """The plot was asked for but matplotlib (the ``plot`` extra) is not installed."""

    exit_code = 2


@dataclass(frozen=True)
class Config:
    """What to measure: ``boards`` boards from ``seed``, scrambled by walks of the given lengths in turn."""

    seed: int = 1
    boards: int = 200
    n: int = 3
    walks: tuple[int, ...] = DEFAULT_WALKS
    node_limits: tuple[int, ...] = DEFAULT_LIMITS
    widths: tuple[int, ...] = DEFAULT_WIDTHS


@dataclass(frozen=True)
class Trial:
    """One board's measurements. ``h1``/``h2`` are nodes expanded (``None`` past the largest limit);
    ``beam`` maps a width to (moves or ``None`` when it failed, nodes expanded or ``None`` past the limit)."""

    board: Board
    depth: int
    h1: int | None
    h2: int | None
    beam: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)


def scrambled_boards(config: Config) -> list[Board]:
    """The boards of the study: walks from the goal that never undo their previous move.

    >>> [b.tiles for b in scrambled_boards(Config(seed=3, boards=2, walks=(1, 2)))]
    [(1, 2, 3, 4, 5, 0, 7, 8, 6), (1, 2, 3, 4, 0, 5, 7, 8, 6)]
    """
    rng = random.Random(config.seed)
    boards = []
    for index in range(config.boards):
        board, last = Board.goal(config.n), None
        for _ in range(config.walks[index % len(config.walks)]):
            move, board = rng.choice([(m, b) for m, b in board.successors() if m.opposite is not last])
            last = move
        boards.append(board)
    return boards


def _expanded(search: Callable[[], SearchResult]) -> int | None:
    try:
        return search().expanded
    except SearchLimitError:
        return None


def run_experiment(config: Config) -> list[Trial]:
    """Measure every board of the study (deterministic for a given config)."""
    cap = max(config.node_limits)
    trials = []
    for board in scrambled_boards(config):
        optimal = solve(board, "astar", "manhattan")
        beam = {}
        for width in config.widths:
            try:
                result = beam_search(board, width, cap)
                beam[width] = (result.moves if result.outcome == SOLVED else None, result.expanded)
            except SearchLimitError:
                beam[width] = (None, None)
        trials.append(Trial(board, optimal.moves,
                            _expanded(lambda: solve(board, "astar", "hamming", cap)),
                            optimal.expanded if optimal.expanded <= cap else None, beam))
    return trials


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


# --------------------------------------------------------------------------- tables
def algorithm_names(config: Config) -> list[str]:
    return ["A* h1", "A* h2"] + [f"beam {w}" for w in config.widths]


def _nodes_of(trial: Trial, name: str) -> int | None:
    """Nodes a search needed to solve this board, or ``None`` when it did not solve it."""
    if name == "A* h1":
        return trial.h1
    if name == "A* h2":
        return trial.h2
    moves, nodes = trial.beam[int(name.split()[1])]
    return nodes if moves is not None else None


def solved_fractions(trials: Sequence[Trial], config: Config) -> dict[str, list[float]]:
    """For each algorithm, the fraction of boards solved within each node limit."""
    out = {}
    for name in algorithm_names(config):
        needed = [_nodes_of(t, name) for t in trials]
        out[name] = [sum(1 for n in needed if n is not None and n <= limit) / len(trials)
                     for limit in config.node_limits]
    return out


def nodes_by_depth(trials: Sequence[Trial]) -> list[tuple[int, int, float | None, float, float | None, float]]:
    """Rows (depth, boards, mean h1 nodes or ``None`` if any was capped, b* h1, mean h2 nodes, b* h2)."""
    rows = []
    for depth in sorted({t.depth for t in trials}):
        group = [t for t in trials if t.depth == depth]
        h1 = None if any(t.h1 is None for t in group) else statistics.fmean(t.h1 for t in group)
        h2 = None if any(t.h2 is None for t in group) else statistics.fmean(t.h2 for t in group)
        rows.append((depth, len(group), h1, effective_branching_factor(h1, depth) if h1 is not None else None,
                     h2, effective_branching_factor(h2, depth) if h2 is not None else None))
    return rows


def solution_lengths(trials: Sequence[Trial], config: Config) -> list[tuple[str, float, float | None, float | None]]:
    """Rows (algorithm, fraction solved, mean moves when solved, mean moves above optimal when solved)."""
    rows: list[tuple[str, float, float | None, float | None]] = [
        ("A* (optimal)", 1.0, statistics.fmean(t.depth for t in trials), 0.0)]
    for width in config.widths:
        solved = [(t.beam[width][0], t.depth) for t in trials if t.beam[width][0] is not None]
        rows.append((f"beam {width}", len(solved) / len(trials),
                     statistics.fmean(m for m, _ in solved) if solved else None,
                     statistics.fmean(m - d for m, d in solved) if solved else None))
    return rows


def _num(value: float | None, digits: int = 1, capped: str = "-") -> str:
    return capped if value is None else f"{value:,.{digits}f}"


def format_tables(trials: Sequence[Trial], config: Config) -> str:
    """The three tables as text, with a header naming the configuration."""
    cap = max(config.node_limits)
    fractions = solved_fractions(trials, config)
    table1 = tabulate([[f"{limit:,}"] + [f"{fractions[name][i]:.2f}" for name in fractions]
                       for i, limit in enumerate(config.node_limits)],
                      headers=["node limit"] + list(fractions), tablefmt="github", disable_numparse=True)
    table2 = tabulate([[d, count, _num(h1, capped=f"> {cap:,}"), _num(b1, 2), _num(h2, capped=f"> {cap:,}"),
                        _num(b2, 2)] for d, count, h1, b1, h2, b2 in nodes_by_depth(trials)],
                      headers=["depth", "boards", "nodes A* h1", "b* h1", "nodes A* h2", "b* h2"],
                      tablefmt="github", disable_numparse=True)
    table3 = tabulate([[name, f"{fraction:.2f}", _num(moves), _num(excess)]
                       for name, fraction, moves, excess in solution_lengths(trials, config)],
                      headers=["search", "solved", "mean moves", "mean moves above optimal"],
                      tablefmt="github", disable_numparse=True)
    walks = ", ".join(map(str, config.walks))
    return (f"{len(trials)} random {config.n}x{config.n} boards from seed {config.seed} "
            f"(random walks of {walks} moves from the goal); searches capped at {cap:,} expanded nodes.\n\n"
            f"Fraction of boards solved within a node limit\n\n{table1}\n\n"
            f"Nodes expanded by A*, by optimal solution depth (b* = effective branching factor)\n\n{table2}\n\n"
            f"Solution lengths: A* against beam search (Manhattan-ranked) of several widths\n\n{table3}\n")


# --------------------------------------------------------------------------- plot
def plot_png(trials: Sequence[Trial], config: Config) -> bytes:
    """The figure (three panels, one per table) as PNG bytes. Needs matplotlib, imported here only."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailableError("the plot needs matplotlib: pip install 'npuzzle-grader[plot]', "
                                   "or pass --no-plot") from None
    figure = Figure(figsize=(15, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    solved_ax, nodes_ax, length_ax = figure.subplots(1, 3)

    for name, fractions in solved_fractions(trials, config).items():
        solved_ax.plot(config.node_limits, fractions, marker="o", label=name)
    solved_ax.set(xscale="log", xlabel="node limit", ylabel="fraction solved", ylim=(-0.02, 1.02),
                  title="Boards solved within a node limit")
    solved_ax.legend(fontsize="small")

    depths = sorted({t.depth for t in trials})
    for label, attr in (("A* h1 (misplaced)", "h1"), ("A* h2 (Manhattan)", "h2")):
        points = [(d, statistics.fmean(getattr(t, attr) for t in trials if t.depth == d)) for d in depths
                  if all(getattr(t, attr) is not None for t in trials if t.depth == d)]
        nodes_ax.plot([d for d, _ in points], [max(v, 1) for _, v in points], marker="o", label=label)
    nodes_ax.set(yscale="log", xlabel="optimal solution depth", ylabel="mean nodes expanded",
                 title="Nodes expanded: h1 vs h2")
    nodes_ax.legend(fontsize="small")

    rows = solution_lengths(trials, config)
    names = [name for name, *_ in rows]
    means = [moves or 0.0 for _, _, moves, _ in rows]
    bars = length_ax.bar(names, means, color=["tab:green"] + ["tab:blue"] * len(config.widths))
    for bar, (_, fraction, _, _) in zip(bars, rows):
        length_ax.annotate(f"{fraction:.0%} solved", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                           ha="center", va="bottom", fontsize="small")
    length_ax.set(ylabel="mean moves (boards solved)", title="Solution length: A* vs beam search")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


# --------------------------------------------------------------------------- command
def _int_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        numbers = tuple(int(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected comma-separated whole numbers, found {value!r}") from None
    if not numbers or min(numbers) < (0 if param.name == "walks" else 1):
        raise click.BadParameter(f"expected positive whole numbers, found {value!r}")
    return numbers


@click.command("experiment")
@click.option("--seed", type=int, default=Config.seed, show_default=True, help="Seed for the random boards.")
@click.option("--boards", type=click.IntRange(min=1), default=Config.boards, show_default=True,
              help="How many random boards.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="experiment-results",
              show_default=True, help="Folder for tables.txt and experiment.png.")
@click.option("--walks", default=",".join(map(str, DEFAULT_WALKS)), show_default=True, callback=_int_list,
              help="Random-walk lengths used in turn to scramble the boards.")
@click.option("--limits", default=",".join(map(str, DEFAULT_LIMITS)), show_default=True, callback=_int_list,
              help="Node limits for the solved-fraction table; the largest caps every search.")
@click.option("--widths", default=",".join(map(str, DEFAULT_WIDTHS)), show_default=True, callback=_int_list,
              help="Beam widths to compare with A*.")
@click.option("--plot/--no-plot", default=True, show_default=True, help="Write experiment.png (needs matplotlib).")
def experiment(seed: int, boards: int, out_dir: str, walks: tuple[int, ...], limits: tuple[int, ...],
               widths: tuple[int, ...], plot: bool) -> int:
    """Reproduce the classic study on random 8-puzzles: A* with h1 vs h2, and beam search.

    Prints three tables (fraction solved by node limit, nodes expanded by depth, solution
    lengths of A* vs beam search) and writes them to OUT/tables.txt, with a figure in
    OUT/experiment.png.
    """
    config = Config(seed=seed, boards=boards, walks=walks, node_limits=tuple(sorted(limits)), widths=widths)
    trials = run_experiment(config)
    text = format_tables(trials, config)
    png = plot_png(trials, config) if plot else None
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from solver.errors import OutputError
        raise OutputError(f"{out}: cannot create the folder: {exc.strerror or exc}") from None
    write_atomic(out / "tables.txt", text)
    if png is not None:
        write_atomic(out / "experiment.png", png)
    sys.stdout.write(text)
    click.echo(f"\nWrote {out / 'tables.txt'}" + (f" and {out / 'experiment.png'}" if png else ""))
    return 0
