"""Fixtures for solver tests: the exhaustive 3×3 distance table, built once per session."""

from __future__ import annotations

from collections import deque

import pytest

from solver.board import Board


def bfs_distances(n: int) -> dict[tuple[int, ...], int]:
    """Exact distance to the goal of every solvable n×n board (breadth-first from the goal)."""
    goal = Board.goal(n)
    dist = {goal.tiles: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        d = dist[board.tiles] + 1
        for _, nxt in board.successors():
            if nxt.tiles not in dist:
                dist[nxt.tiles] = d
                queue.append(nxt)
    return dist


@pytest.fixture(scope="session")
def table3() -> dict[tuple[int, ...], int]:
    return bfs_distances(3)


@pytest.fixture(scope="session")
def table2() -> dict[tuple[int, ...], int]:
    return bfs_distances(2)
