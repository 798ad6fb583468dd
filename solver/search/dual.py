"""The dual board: the same puzzle searched from the other end, for a board whose blank is in a corner.

A path of blank moves from board B to the goal G, run backwards, takes G to B. Mapped by a
symmetry ρ of the square that sends B's blank cell to the blank's goal cell (a corner other than
the goal's needs a reflection or a half turn; the goal's own corner needs none), it takes ρ(G)
to ρ(B), which has the blank where the goal has it. Renaming the tiles so that ρ(B) becomes G
(the blank keeps its name) makes that a path from the *dual* board D to G, move for move.
So D needs exactly as many moves as B, and any heuristic for the standard goal is admissible on
it. An optimal path for D, reversed and mapped back by ρ, is an optimal path for B.

The two searches can differ a lot: on the 23 of Korf's 100 with the blank in a corner, one side
expands from 0.07× to 8× the other's nodes. :func:`race` therefore runs both sides' iterations,
the lower bound first, until both have searched one bound and either needed :data:`PROBE` nodes
there, and picks the side that needed fewer (the board itself on a tie). The iterations run so
far are the start of the chosen side's search, so it goes on from where it stopped; the other's
are the price. Only corners have a symmetry that sends them to the goal's corner, so other boards
(and a board that is its own dual) are searched as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from solver.search.native import remember_route, route_arrays
from solver.search.status import FOUND, LIMIT, MAX_DEPTH, NOT_FOUND

PROBE = 100
"""Nodes one side's iteration must reach, at a bound both sides have searched, before they are compared.

Measured on the 23 corner boards of Korf's 100 (one iteration at a time, both sides): comparing
at 100 nodes takes 482 K nodes in all (the loser's iterations included), at 1,000 556 K, the
board alone 815 K, and always the better side 448 K."""
PROBE_CAP = 64 * PROBE
"""Nodes after which the race ends even if the sides never searched the same bound (one skipped it)."""


def corner_symmetry(n: int, blank: int) -> np.ndarray | None:
    """The symmetry (``cells[c]``: the image of cell ``c``) that sends corner ``blank`` to the last cell.

    ``None`` if ``blank`` is not a corner. Each one is its own inverse: a half turn, a
    reflection across a middle line, or the identity.
    """
    row, col = divmod(blank, n)
    if row not in (0, n - 1) or col not in (0, n - 1):
        return None
    cells = np.arange(n * n).reshape(n, n)
    if row == 0:
        cells = cells[::-1, :]
    if col == 0:
        cells = cells[:, ::-1]
    return cells.ravel().astype(np.int64)


def dual_board(tiles: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(dual tiles, symmetry)`` for a board with its blank in a corner, else ``None``.

    ``tiles`` is row-major with 0 for the blank, solved as ``1..N²-1`` then the blank.
    """
    blank = int(np.flatnonzero(tiles == 0)[0])
    symmetry = corner_symmetry(n, blank)
    if symmetry is None:
        return None
    goal = np.append(np.arange(1, n * n), 0)
    mapped_board, mapped_goal = np.empty_like(goal), np.empty_like(goal)
    mapped_board[symmetry] = tiles
    mapped_goal[symmetry] = goal
    rename = np.empty_like(goal)
    rename[mapped_board] = goal  # the tile ρ(B) holds in a cell is called what G holds there
    return rename[mapped_goal], symmetry


def path_back(dual_path: np.ndarray, length: int, symmetry: np.ndarray) -> np.ndarray:
    """The original board's path (the blank's cell at each depth) from the dual's ``dual_path[0..length]``."""
    return symmetry[dual_path[:length + 1][::-1]].copy()


@dataclass
class Side:
    """One end of the search: its board, and how far its iterations have gone."""

    tiles: np.ndarray
    symmetry: np.ndarray | None  # None: the board itself; else the dual, whose path this maps back
    pv: np.ndarray
    best: np.ndarray
    bound: int  # the next iteration's bound
    sizes: dict[int, int] = field(default_factory=dict)  # nodes expanded at each bound searched, in order

    @property
    def last(self) -> int:
        """Nodes the last iteration expanded (0 before any)."""
        return self.sizes[next(reversed(self.sizes))] if self.sizes else 0

    def original_path(self, path: np.ndarray, length: int) -> np.ndarray:
        return path if self.symmetry is None else path_back(path, length, self.symmetry)


@dataclass(frozen=True)
class RaceEnd:
    """How :func:`race` ended: a side to go on with, or the whole search's outcome."""

    side: Side | None  # None when the race finished the search (``status`` says how)
    status: int
    expanded: int  # by both sides' iterations
    generated: int
    length: int = 0
    bound: int = 0
    path: np.ndarray | None = None  # the board's own path when FOUND


Kernel = Callable[..., int]


def sides(kernel: Kernel, tiles: np.ndarray, n: int, route_first: bool, dual: bool = True) -> list[Side]:
    """The board's side, and (if ``dual``) its dual's when it has one that differs from it."""
    found = dual_board(tiles, n) if dual else None
    boards = [(tiles, None)] if found is None or np.array_equal(found[0], tiles) else [(tiles, None), found]
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    out = []
    for board, symmetry in boards:
        pv, best = route_arrays(path, None, None)
        pv[0] = 0 if route_first else -1
        out.append(Side(board, symmetry, pv, best, -1))
    if len(out) == 2:
        for side in out:  # the root's bound, read without expanding it (a node limit of 0)
            counters = np.zeros(5, dtype=np.int64)
            kernel(side.tiles, path, counters, 0, bound=-1, pv=side.pv, best=side.best)
            side.bound = int(counters[3])
    return out


def race(kernel: Kernel, pair: list[Side], node_limit: int, prune: np.ndarray) -> RaceEnd:
    """Search both sides one iteration at a time until one is chosen (see the module) or the search ends."""
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    counters = np.zeros(5, dtype=np.int64)
    expanded = generated = 0
    while True:
        side = min(pair, key=lambda s: s.bound)  # the board's own side first on a tie
        status = kernel(side.tiles, path, counters, node_limit - expanded, bound=side.bound, pv=side.pv,
                        best=side.best, prune=prune)
        e, g, length, reached = (int(x) for x in counters[:4])
        if status == LIMIT:
            return RaceEnd(None, LIMIT, node_limit + 1, generated + g, bound=max(s.bound for s in pair))
        expanded, generated = expanded + e, generated + g
        if status != NOT_FOUND:  # FOUND, or TOO_DEEP past the depth cap
            found = side.original_path(path, length) if status == FOUND else path
            return RaceEnd(None, status, expanded, generated, length, reached, found)
        side.sizes[side.bound], side.bound = e, reached
        remember_route(side.pv, side.best)
        common = pair[0].sizes.keys() & pair[1].sizes.keys()
        ours = dual = 0
        if common:
            at = max(common)
            ours, dual = pair[0].sizes[at], pair[1].sizes[at]
        if max(ours, dual) >= PROBE or expanded >= PROBE_CAP:
            return RaceEnd(pair[1] if dual < ours else pair[0], NOT_FOUND, expanded, generated)
