"""A* over boards, and the registry of the admissible heuristics by name.

Deterministic, instrumented and silent: :func:`astar` returns a
:class:`~solver.search.result.SearchResult` and never prints.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from solver.board import Board, Move
from solver.errors import SearchLimitError
from solver.search.result import SearchResult, unsolvable_result

Heuristic = Callable[[Board], int]

HEURISTICS: dict[str, Heuristic] = {
    "hamming": Board.hamming,
    "manhattan": Board.manhattan,
    "linear-conflict": Board.linear_conflict,
}
"""Admissible heuristics by the names the CLI and the configs use."""


def heuristic_by_name(name: str) -> Heuristic:
    try:
        return HEURISTICS[name]
    except KeyError:
        raise ValueError(f"unknown heuristic {name!r}; choose one of {', '.join(HEURISTICS)}") from None


@dataclass(frozen=True, slots=True)
class Node:
    """A search node: the board, the node it came from, the move taken and the cost so far."""

    board: Board
    parent: Node | None
    move: Move | None
    g: int

    def path(self) -> tuple[Board, ...]:
        boards = []
        node: Node | None = self
        while node is not None:
            boards.append(node.board)
            node = node.parent
        return tuple(reversed(boards))


def astar(start: Board, heuristic: str = "manhattan", node_limit: int | None = None) -> SearchResult:
    """A* search from ``start`` to the standard goal.

    Parameters
    ----------
    start : the board to solve.
    heuristic : a name from :data:`HEURISTICS`. All are admissible, so the path is optimal.
    node_limit : stop with :class:`SearchLimitError` once more than this many nodes are expanded.

    The priority is ``f = g + h``; ties go to the larger ``g`` (the node nearer the goal),
    then to the node generated first, via a counter in each heap entry, so the same input
    always gives the same path. A child equal to its grandparent is never enqueued. The
    best cost found per board is kept; a board is expanded only at its best cost, and is
    reopened if a cheaper route to it turns up (which a consistent heuristic never causes).

    Unsolvable boards are recognised by parity before any search and give ``path=None``.
    """
    h = heuristic_by_name(heuristic)
    began = time.perf_counter()
    if not start.is_solvable():
        return unsolvable_result("astar", heuristic)
    counter = itertools.count()
    root = Node(start, None, None, 0)
    h0 = h(start)
    frontier: list[tuple[int, int, int, Node]] = [(h0, 0, next(counter), root)]
    best_g: dict[tuple[int, ...], int] = {start.tiles: 0}
    closed: set[tuple[int, ...]] = set()
    goal = Board.goal(start.n).tiles
    expanded = generated = 0
    while frontier:
        _, _, _, node = heapq.heappop(frontier)
        tiles = node.board.tiles
        if tiles in closed or node.g > best_g[tiles]:
            continue
        if tiles == goal:
            return SearchResult(node.path(), expanded, generated, time.perf_counter() - began,
                                "astar", heuristic)
        closed.add(tiles)
        expanded += 1
        if node_limit is not None and expanded > node_limit:
            raise SearchLimitError("A*", node_limit, expanded)
        grandparent = node.parent.board.tiles if node.parent is not None else None
        g = node.g + 1
        for move, child in node.board.successors():
            if child.tiles == grandparent:
                continue
            generated += 1
            if g >= best_g.get(child.tiles, g + 1):
                continue
            best_g[child.tiles] = g
            closed.discard(child.tiles)
            heapq.heappush(frontier, (g + h(child), -g, next(counter), Node(child, node, move, g)))
    raise AssertionError("A* exhausted a solvable board's component; the parity rule is wrong")
