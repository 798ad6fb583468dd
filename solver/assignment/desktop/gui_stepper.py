"""A* one expansion at a time, for the game's step-through view: what the search is thinking.

Each :meth:`AStarStepper.step` takes the frontier's best node (lowest f = g + h, ties to the
larger g, then first in), expands it and reports it with its g, h and f and the frontier and
expanded counts, the numbers a student traces by hand. Free of Tk.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

from solver.board import Board

HEURISTICS = {"h2: Manhattan distance": "manhattan", "h1: misplaced tiles": "hamming"}
"""The step-through view's choices, as the sheets name them, and the :class:`Board` method of each."""


@dataclass(frozen=True)
class Expansion:
    """One step of the search: the node expanded, its costs, and the search's size after it."""

    board: Board
    g: int  # moves from the start
    h: int  # the heuristic's estimate of the moves left
    frontier: int  # boards waiting to be expanded
    expanded: int  # boards expanded so far, this one included
    goal: bool  # the expanded board is the goal: g is the optimal length

    @property
    def f(self) -> int:
        return self.g + self.h


class AStarStepper:
    """A* from ``start`` toward the standard goal with the named heuristic (``manhattan`` or ``hamming``).

    >>> stepper = AStarStepper(Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 0, 8]), "manhattan")
    >>> first = stepper.step()
    >>> first.g, first.h, first.f, first.expanded, first.goal
    (0, 1, 1, 1, False)
    >>> second = stepper.step()
    >>> second.g, second.h, second.goal, stepper.path()[-1].is_goal()
    (1, 0, True, True)
    """

    def __init__(self, start: Board, heuristic: str = "manhattan") -> None:
        if heuristic not in HEURISTICS.values():
            raise ValueError(f"unknown heuristic {heuristic!r}; choose one of {', '.join(HEURISTICS.values())}")
        self.start, self.heuristic = start, heuristic
        self._order = itertools.count()
        self._open: list[tuple[int, int, int, Board]] = []
        self._best_g: dict[Board, int] = {start: 0}
        self._parent: dict[Board, Board | None] = {start: None}
        self._closed: set[Board] = set()
        self.last: Expansion | None = None
        self._push(start, 0)

    def h(self, board: Board) -> int:
        return board.manhattan() if self.heuristic == "manhattan" else board.hamming()

    def _push(self, board: Board, g: int) -> None:
        heapq.heappush(self._open, (g + self.h(board), -g, next(self._order), board))

    @property
    def finished(self) -> bool:
        """The goal was expanded, or nothing is left to expand (an unsolvable board, after all its half)."""
        return (self.last is not None and self.last.goal) or not self._open

    def frontier_size(self) -> int:
        return len(self._best_g) - len(self._closed)

    def step(self) -> Expansion | None:
        """Expand the next node; ``None`` once :attr:`finished`."""
        if self.finished:
            return None
        while self._open:
            _, negative_g, _, board = heapq.heappop(self._open)
            if board not in self._closed and -negative_g == self._best_g[board]:
                break  # skip entries superseded by a shorter route, and boards already expanded
        else:
            return None
        g = -negative_g
        self._closed.add(board)
        if not board.is_goal():
            for _, child in board.successors():
                if child not in self._closed and g + 1 < self._best_g.get(child, g + 2):
                    self._best_g[child], self._parent[child] = g + 1, board
                    self._push(child, g + 1)
        self.last = Expansion(board, g, self.h(board), self.frontier_size(), len(self._closed), board.is_goal())
        return self.last

    def path(self) -> list[Board]:
        """The route from the start to the last expanded board."""
        if self.last is None:
            return []
        route: list[Board] = []
        node: Board | None = self.last.board
        while node is not None:
            route.append(node)
            node = self._parent[node]
        return route[::-1]
