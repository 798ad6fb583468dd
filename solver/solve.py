"""Choosing an algorithm for a board: the one entry point every caller uses to solve.

Imports stay light here (the CLI imports this module to list the algorithms): the exact
tables, numpy and numba are loaded only when an algorithm needs them, so solving a 3×3
board never pays for numba.

numba and numpy are the optional ``[fast]`` extra (the grader never needs them). Without
them ``auto`` falls back to the pure-Python A* (:func:`compiled_search_available` says which
applies; the CLI prints a note), and asking for ``idastar`` or ``pdb`` is an
:class:`UnsupportedAlgorithmError` that names the extra.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace

from solver.board import Board
from solver.errors import UnsupportedAlgorithmError
from solver.search.astar import astar
from solver.search.result import SearchResult, unsolvable_result

ALGORITHMS = ("auto", "astar", "idastar", "table", "pdb")
"""Algorithm names accepted by :func:`solve` and the CLI's ``--algorithm``.

- ``auto``: ``table`` for N ≤ 3, ``pdb`` for N = 4 and 5, ``idastar`` with linear conflict above.
- ``astar``: best-first search (:func:`solver.search.astar.astar`), heuristic as given.
- ``idastar``: compiled IDA* with ``hamming``, ``manhattan`` or ``linear-conflict``.
- ``table``: a walk down the exact distance table (2×2 and 3×3 only).
- ``pdb``: IDA* with additive pattern databases and their reflected lookup (4×4 and 5×5);
  ``heuristic="linear-conflict"`` also takes the max with linear conflict.
"""

TABLE_SIZES = (2, 3)
PDB_SIZES = (4, 5)
QUICK_TRY_NODES = 20_000_000
"""For 5×5, ``auto`` first tries IDA* with linear conflict this far (about 2 s) before it pays
the one-off ~20 s build of the 5×5 pattern databases; most course boards finish within it."""


FAST_EXTRA = "pip install 'npuzzle-grader[fast]'"
COMPILED = ("idastar", "pdb")


def compiled_search_available() -> bool:
    """Whether numba and numpy (the ``[fast]`` extra) can be imported, without importing them."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))
    except (ImportError, ValueError):
        return False


def auto_algorithm(n: int) -> str:
    """The fastest optimal algorithm for an N×N board (A* when the compiled search is not installed)."""
    if n in TABLE_SIZES:
        return "table"
    if not compiled_search_available():
        return "astar"
    if n in PDB_SIZES:
        return "pdb"
    return "idastar"


def solve(board: Board, algorithm: str = "auto", heuristic: str | None = None,
          node_limit: int | None = None) -> SearchResult:
    """Solve ``board`` optimally with the named algorithm.

    ``auto`` picks the fastest optimal method for the board's size. ``heuristic``
    defaults to the strongest one the algorithm supports. Unsolvable boards (by parity)
    give ``path=None``. Raises :class:`solver.errors.SearchLimitError` past ``node_limit``
    expanded nodes, and :class:`UnsupportedAlgorithmError` (a ``ValueError``) for an algorithm that
    cannot handle the board's size.
    The first ``pdb`` solve of a size builds its tables (4×4: about 45 s on two cores, once per machine).
    """
    if algorithm == "auto":
        algorithm = auto_algorithm(board.n)
        if algorithm == "pdb" and board.n > 4 and heuristic is None:
            return _solve_5x5(board, node_limit)
    if algorithm == "astar":
        return astar(board, heuristic or "linear-conflict", node_limit)
    if algorithm in COMPILED and not compiled_search_available():
        raise UnsupportedAlgorithmError(f"the {algorithm} algorithm needs numba and numpy, which are not "
                                        f"installed: {FAST_EXTRA} (or use --algorithm astar)")
    if algorithm == "table":
        if board.n not in TABLE_SIZES:
            raise UnsupportedAlgorithmError(f"the exact table exists for 2x2 and 3x3 only, not {board.n}x{board.n}")
        if not board.is_solvable():
            return unsolvable_result("table", "exact")
        from solver.search.exact import solve_exact

        return solve_exact(board)
    if algorithm == "idastar":
        if not board.is_solvable():
            return unsolvable_result("idastar", heuristic or "linear-conflict")
        from solver.search.idastar import idastar

        return idastar(board, heuristic or "linear-conflict", node_limit)
    if algorithm == "pdb":
        if board.n not in PDB_SIZES:
            sizes = ", ".join(f"{n}x{n}" for n in PDB_SIZES)
            raise UnsupportedAlgorithmError(f"pattern databases exist for {sizes} only, not {board.n}x{board.n}")
        if heuristic not in (None, "linear-conflict"):
            raise UnsupportedAlgorithmError(f"the pdb algorithm combines only with linear-conflict, not {heuristic!r}")
        if not board.is_solvable():
            return unsolvable_result("pdb", "pdb")
        from solver.search.idastar import run
        from solver.search.pdb.database import pdb_heuristic

        return run(board, pdb_heuristic(board.n, with_linear_conflict=heuristic is not None), "pdb", node_limit)
    raise UnsupportedAlgorithmError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")


def plain_effort(board: Board) -> int:
    """Nodes a plain IDA* with Manhattan distance expands solving ``board``: children in direction order,
    only the move back skipped (no remembered route, no pruning of redundant routes, no dual search).
    The yardstick of how hard a board is for the search a student writes; needs the ``[fast]`` extra."""
    from solver.search.heuristic import simple_heuristic
    from solver.search.idastar import run

    return run(board, simple_heuristic(board.n, "manhattan"), "idastar", route_first=False, pruned=False,
               dual=False).expanded


def _solve_5x5(board: Board, node_limit: int | None) -> SearchResult:
    """5×5 under ``auto``: the pattern databases if already built, else linear conflict first."""
    from solver.errors import SearchLimitError
    from solver.search.idastar import idastar, run
    from solver.search.pdb.database import pdb_heuristic, tables_present

    if not board.is_solvable():
        return unsolvable_result("pdb", "pdb")
    if tables_present(board.n):
        return run(board, pdb_heuristic(board.n), "pdb", node_limit)
    budget = QUICK_TRY_NODES if node_limit is None else min(node_limit, QUICK_TRY_NODES)
    try:
        return idastar(board, "linear-conflict", budget)
    except SearchLimitError as exc:
        if node_limit is not None and node_limit <= QUICK_TRY_NODES:
            raise
        spent = exc.expanded
    remaining = None if node_limit is None else node_limit - spent
    result = run(board, pdb_heuristic(board.n), "pdb", remaining)
    return replace(result, expanded=result.expanded + spent)
