"""Certifying a board's answer with the reference solver, and writing puzzle files.

Every move count in a test set comes from :func:`certify`, which runs the reference
solver (:func:`solver.solve.solve`, optimal by construction) and checks the path it
returns move by move; an unsolvable verdict comes from the inversion-parity proof the
solver applies before any search. The generator, the importer and the validator all
use this one function, so a set can never hold a count the solver did not derive.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import pairwise

from solver.board import Board
from solver.formats import format_board as solution_board
from solver.solve import solve

STYLES = ("plain", "padded", "crlf")
"""Layouts of the puzzle files a set hands to students.

``plain``: ``N`` then rows of single-space-separated tiles, LF. ``padded``: tiles
right-aligned to width 2 with a trailing space, as in the Princeton files.
``crlf``: plain rows with CRLF line endings and no final newline, as in the CMPE 160
course files.
"""

HARD_MIN_MOVES = 45
"""From this optimal length on, a 4×4 or larger board is tagged ``hard``: plain A* with
Manhattan distance needs tens of seconds and gigabytes on it (see
../shared/docs/real-submissions.md)."""


@dataclass(frozen=True)
class Certificate:
    """What the reference solver proved about a board."""

    solvable: bool
    moves: int | None
    seconds: float
    expanded: int


class CertificationLimit(Exception):
    """The solver gave up (its node limit) before proving the optimum."""


def certify(board: Board, node_limit: int | None = None, blank_first: bool = False) -> Certificate:
    """Solve ``board`` optimally and check the path; raises :class:`CertificationLimit` past ``node_limit``.

    ``blank_first``: certify for the goal ``0 1 2 …`` instead of ``1 2 … 0``. The board is mapped
    onto the standard goal (:meth:`Board.standardized`, which keeps every move a move), so the
    count, and for even N the solvability, are those of the assignment's goal.
    """
    from solver.errors import SearchLimitError

    board = board.standardized(blank_first)
    began = time.perf_counter()
    try:
        result = solve(board, node_limit=node_limit)
    except SearchLimitError as exc:
        raise CertificationLimit(str(exc)) from None
    seconds = time.perf_counter() - began
    if result.path is None:
        if board.is_solvable():
            raise AssertionError(f"the reference solver calls a solvable board unsolvable: {board.tiles}")
        return Certificate(False, None, seconds, result.expanded)
    path = result.path
    if path[0] != board or not path[-1].is_goal() or any(a.move_to(b) is None for a, b in pairwise(path)):
        raise AssertionError(f"the reference solver returned an invalid path for {board.tiles}")
    return Certificate(True, len(path) - 1, seconds, result.expanded)


def format_board(board: Board, style: str = "plain") -> str:
    """A board as a puzzle input file in one of :data:`STYLES`.

    >>> format_board(Board.from_tiles([1, 0, 3, 2]), "padded")
    '2\\n 1  0 \\n 3  2 \\n'
    """
    if style == "plain":
        return solution_board(board) + "\n"
    if style == "crlf":
        return solution_board(board).replace("\n", "\r\n")
    if style == "padded":
        width = max(2, len(str(board.n * board.n - 1)))
        rows = ["".join(f"{tile:>{width}} " for tile in row) for row in board.rows()]
        return "\n".join([str(board.n)] + rows) + "\n"
    raise ValueError(f"unknown style {style!r}; choose one of {', '.join(STYLES)}")


def size_tag(n: int) -> str:
    return f"size:{n}x{n}"


def depth_bucket(n: int, moves: int) -> str:
    """The depth-bucket tag of a solvable case: fixed ranges per size, so tags compare across sets."""
    if n == 2:
        return "depth:0-6"
    edges = (0, 8, 16, 24, 31) if n == 3 else (0, 9, 19, 29, 39, 49, 59, 69, 80)
    for lo, hi in pairwise(edges):
        if moves <= hi:
            return f"depth:{lo if lo == 0 else lo + 1}-{hi}"
    return f"depth:{edges[-1] + 1}+"


def answer_tags(board: Board, cert: Certificate) -> list[str]:
    """Tags every case gets from its answer: size, depth bucket or unsolvable, hard."""
    tags = [size_tag(board.n)]
    if not cert.solvable:
        tags.append("unsolvable")
        return tags
    tags.append(depth_bucket(board.n, cert.moves or 0))
    if cert.moves == 0:
        tags.append("edge:solved")
    if board.n >= 4 and (cert.moves or 0) >= HARD_MIN_MOVES:
        tags.append("hard")
    return tags
