"""``python -m solver``: solve a puzzle file into the prescribed output format.

Only argument handling lives here; the work is in :mod:`solver.solve` and
:mod:`solver.formats`.
"""

from __future__ import annotations

import os
import sys

import click

from solver.clikit import DefaultGroup, exit_codes_epilog, run
from solver.errors import EXIT_CODES, SolverError
from solver.solve import ALGORITHMS

LAZY_COMMANDS: dict[str, str] = {
    "shell": "solver.assignment.shell:shell",
    "tables": "solver.tables_cli:tables",
    "experiment": "solver.assignment.experiment_report:experiment",
    "gui": "solver.assignment.desktop.gui:gui",
    "web": "solver.assignment.web:web",
}
"""Subcommands beside ``solve``, imported only when used."""

EPILOG = exit_codes_epilog(EXIT_CODES)


@click.group(cls=DefaultGroup, default="solve", lazy=LAZY_COMMANDS, epilog=EPILOG,
             context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Solve N-puzzles optimally.

    With no arguments, reads ./input.txt and writes ./output.txt. Run
    `python -m solver solve --help` for the options.
    """


@main.command("solve", epilog=EPILOG)
@click.argument("input_path", metavar="[IN]", required=False)
@click.option("-o", "--output", "output_path", metavar="OUT",
              help="Where to write the answer; '-' is stdout. Default: output.txt when IN is not given, "
                   "otherwise stdout.")
@click.option("-a", "--algorithm", type=click.Choice(ALGORITHMS),
              default="auto", show_default=True, help="Search algorithm; auto picks the fastest optimal one.")
@click.option("-H", "--heuristic", type=click.Choice(["hamming", "manhattan", "linear-conflict"]),
              default=None, help="Heuristic for astar/idastar (default: linear-conflict).")
@click.option("--node-limit", type=click.IntRange(min=1), default=None,
              help="Give up (exit 11) after expanding this many nodes.")
@click.option("--stats", is_flag=True, help="Print moves, nodes expanded/generated and seconds on stderr.")
@click.option("--preset", type=click.Choice(["princeton", "cmpe160"]), default="princeton", show_default=True,
              help="Whose expected files to match for an unsolvable board: princeton writes "
                   "'No solution possible', cmpe160 writes 'No solution found.'. Solutions are the same.")
@click.option("--max-size", type=click.IntRange(min=2), default=None, metavar="N",
              help="Accept boards up to NxN (default 100). An optimal search of a large board "
                   "(IDA* with linear conflict) can take very long: bound it with --node-limit.")
def solve_command(input_path: str | None, output_path: str | None, algorithm: str, heuristic: str | None,
                  node_limit: int | None, stats: bool, preset: str, max_size: int | None) -> int:
    """Solve IN (default ./input.txt; '-' reads stdin) and write the shortest solution."""
    from solver.fileio import read_input, remove_stale, write_atomic
    from solver.formats import MAX_N, UNSOLVABLE_BY_PRESET, format_solution, parse_puzzle
    from solver.solve import FAST_EXTRA, auto_algorithm, solve

    if output_path is None:
        output_path = "output.txt" if input_path is None else "-"
    if input_path is None:
        input_path = "input.txt"
    try:
        board = parse_puzzle(read_input(input_path), "<stdin>" if input_path == "-" else input_path,
                             max_n=max_size or MAX_N)
        if algorithm == "auto" and auto_algorithm(board.n) == "astar":
            click.echo(f"note: numba is not installed, so this {board.n}x{board.n} board is solved by the "
                       f"pure-Python A* (much slower, and memory-hungry on deep boards); for the compiled "
                       f"search: {FAST_EXTRA}", err=True)
        result = solve(board, algorithm, heuristic, node_limit)
        text = format_solution(result.path, UNSOLVABLE_BY_PRESET[preset])
        if output_path == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            write_atomic(output_path, text)
    except BaseException:
        if output_path != "-":
            remove_stale(output_path)
        raise
    if stats:
        click.echo(f"moves={result.moves} expanded={result.expanded} generated={result.generated} "
                   f"seconds={result.seconds:.4f} algorithm={result.algorithm} heuristic={result.heuristic}",
                   err=True)
    return 0


def entry(args: list[str] | None = None) -> int:
    # The installed script says its own name in usage lines and errors; `python -m solver` says "solver".
    prog = "npuzzle-solve" if os.path.basename(sys.argv[0] or "") == "npuzzle-solve" else "solver"
    return run(main, prog, (SolverError,), args)


if __name__ == "__main__":
    sys.exit(entry())
