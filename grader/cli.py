"""``grade``: the grader's command line. It only maps flags onto plain functions."""

from __future__ import annotations

import sys

import click

from grader.errors import EXIT_CODES, GraderError
from solver.clikit import DefaultGroup, exit_codes_epilog, run
from solver.errors import SolverError

LAZY_COMMANDS: dict[str, str] = {
    # name: "module:click_command" -- each subsystem registers its command here.
}

EPILOG = exit_codes_epilog(EXIT_CODES)


@click.group(cls=DefaultGroup, default="run", lazy=LAZY_COMMANDS, epilog=EPILOG,
             context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Grade N-puzzle submissions: `grade SUBMISSIONS_DIR` runs every submission on every case."""


def entry(args: list[str] | None = None) -> int:
    return run(main, "grade", (GraderError, SolverError), args)


if __name__ == "__main__":
    sys.exit(entry())
