"""The solver's error hierarchy. Each error is one line for the user and one exit code.

The CLI turns these into messages and exit codes in one place (:mod:`solver.clikit`);
nothing below the CLI prints. The codes are part of the interface and are listed in
``python -m solver --help``.
"""

from __future__ import annotations


class SolverError(Exception):
    """Base class: ``str(error)`` is the whole message, ``exit_code`` the process status."""

    exit_code = 1


class InputError(SolverError):
    """A puzzle file that cannot be read as a puzzle.

    The message names the file, the line (when there is one), what was expected and
    what was found: ``input.txt:3: expected an integer tile, found 'x'``.
    """

    exit_code = 3

    def __init__(self, source: str, line: int | None, expected: str, found: str) -> None:
        self.source, self.line, self.expected, self.found = source, line, expected, found
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: expected {expected}, found {found}")


class MissingInputError(InputError):
    exit_code = 3


class EmptyInputError(InputError):
    exit_code = 4


class BinaryInputError(InputError):
    exit_code = 5


class NotAnIntegerError(InputError):
    exit_code = 6


class BoardSizeError(InputError):
    exit_code = 7


class TileCountError(InputError):
    exit_code = 8


class DuplicateTileError(InputError):
    exit_code = 9


class TileRangeError(InputError):
    exit_code = 10


class SearchLimitError(SolverError):
    """A search gave up after its node limit, instead of exhausting memory."""

    exit_code = 11

    def __init__(self, algorithm: str, limit: int, expanded: int, bound: int | None = None) -> None:
        self.algorithm, self.limit, self.expanded, self.bound = algorithm, limit, expanded, bound
        detail = f"; the optimum is at least {bound} moves" if bound is not None else ""
        super().__init__(
            f"{algorithm} stopped after expanding {expanded:,} nodes (node limit {limit:,}){detail}; "
            "raise --node-limit or choose a stronger algorithm")


class UnsupportedAlgorithmError(SolverError, ValueError):
    """An algorithm asked for a board size or heuristic it cannot handle (a usage error: exit 2)."""

    exit_code = 2


class OutputError(SolverError):
    """The answer could not be written."""

    exit_code = 12


class SolutionFormatError(SolverError):
    """A printed solution that cannot be read (the grader turns this into a PE verdict)."""

    exit_code = 13

    def __init__(self, source: str, line: int | None, expected: str, found: str) -> None:
        self.source, self.line, self.expected, self.found = source, line, expected, found
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: expected {expected}, found {found}")


EXIT_CODES: dict[int, str] = {
    0: "success (a solution, or 'No solution possible', was written)",
    1: "internal error in the solver (please report it)",
    2: "bad command-line usage",
    3: "input file missing or unreadable",
    4: "input file empty",
    5: "input file is binary or not UTF-8 text",
    6: "input holds something that is not an integer",
    7: "board size N is below 2 or unreasonably large",
    8: "too few or too many tiles for N",
    9: "a tile appears twice",
    10: "a tile is outside 0..N²-1",
    11: "the search reached its node limit",
    12: "the output file could not be written",
    13: "a solution file could not be read",
    130: "interrupted (Ctrl-C); no output file is left behind",
}
