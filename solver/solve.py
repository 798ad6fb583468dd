"""Choosing an algorithm for a board: the one entry point every caller uses to solve."""

from __future__ import annotations

from solver.board import Board
from solver.search import SearchResult, astar

ALGORITHMS = ("auto", "astar")
"""Algorithm names accepted by :func:`solve` and the CLI's ``--algorithm``."""


def solve(board: Board, algorithm: str = "auto", heuristic: str | None = None,
          node_limit: int | None = None) -> SearchResult:
    """Solve ``board`` optimally with the named algorithm.

    ``auto`` picks the fastest optimal method for the board's size. ``heuristic``
    defaults to the strongest one the algorithm supports. Raises
    :class:`solver.errors.SearchLimitError` past ``node_limit`` expanded nodes.
    """
    if algorithm in ("auto", "astar"):
        return astar(board, heuristic or "linear-conflict", node_limit)
    raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
