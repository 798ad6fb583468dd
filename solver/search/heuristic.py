"""What the IDA* kernel needs to evaluate a heuristic: its kind and, for pattern databases, the tables' layout.

Plain data (numpy arrays, no numba), built by :func:`simple_heuristic` for Hamming, Manhattan and
linear conflict, and by :func:`solver.search.pdb.database.heuristic_from_tables` for pattern databases.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HAMMING, MANHATTAN, LINEAR_CONFLICT, PDB, PDB_LC = 0, 1, 2, 3, 4
KINDS = {"hamming": HAMMING, "manhattan": MANHATTAN, "linear-conflict": LINEAR_CONFLICT}
"""Heuristics the plain ``idastar`` algorithm accepts, by the names of :data:`solver.search.astar.HEURISTICS`."""

MAX_PATTERN = 8
"""Most tiles in one dense pattern."""


@dataclass(frozen=True)
class Heuristic:
    """What the kernel needs to evaluate a heuristic on an N×N board.

    For pattern databases (see :mod:`solver.search.pdb.database`) the value is Manhattan plus twice the
    largest of ``sets`` sums; each sum adds up disjoint patterns' entries (the pairs of moves a
    pattern needs beyond its tiles' Manhattan distance). In set ``s``, tile ``t`` belongs to slot
    ``slot[s*N² + t]``, whose table starts at byte ``offset[slot]`` of ``pdb`` and which reads
    the board through its own frame: a tile on board cell ``c`` is seen on cell ``cells[slot*N² + c]``
    (the identity, or a symmetry of the square: :mod:`solver.search.pdb.views`). A sparse slot's
    index adds ``weight[s*N² + t] * (t's cell as seen)`` over its tiles. A slot with
    ``dense[slot] = k > 0`` is a dense table instead: its index is the rank of the cells (as seen)
    of tiles ``members[slot*MAX_PATTERN : slot*MAX_PATTERN + k]``.
    """

    name: str
    kind: int
    pdb: np.ndarray
    offset: np.ndarray
    sets: int
    slot: np.ndarray
    weight: np.ndarray
    cells: np.ndarray
    dense: np.ndarray
    members: np.ndarray


def simple_heuristic(n: int, name: str) -> Heuristic:
    """Hamming, Manhattan or linear conflict for N×N (no tables)."""
    try:
        kind = KINDS[name]
    except KeyError:
        raise ValueError(f"unknown heuristic {name!r} for idastar; choose one of {', '.join(KINDS)}") from None
    one = np.zeros(1, dtype=np.int64)
    cells = np.zeros(n * n, dtype=np.int64)
    return Heuristic(name, kind, np.zeros(1, dtype=np.uint8), one, 0, cells, cells, cells,
                     np.zeros(1, dtype=np.int64), np.zeros(MAX_PATTERN, dtype=np.int64))
