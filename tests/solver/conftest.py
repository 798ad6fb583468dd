"""Fixtures for solver tests: the exhaustive 3×3 distance table, and a table cache for the 4×4 tests."""

from __future__ import annotations

import shutil
from collections import deque

import pytest

from solver.board import Board
from solver.fileio import cache_dir


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


@pytest.fixture(scope="module")
def pdb_cache(tmp_path_factory: pytest.TempPathFactory):
    """One table cache for the whole session, in a temp dir.

    The 4×4 tables take minutes to build (the top eight about 5), so the temp dir starts with copies of the
    pattern tables already in the user's cache (each is verified on loading, and rebuilt if bad).
    """
    path = tmp_path_factory.getbasetemp() / "npuzzle-table-cache"
    if not path.exists():
        path.mkdir()
        for table in cache_dir().glob("pdb-*.bin"):
            shutil.copyfile(table, path / table.name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NPUZZLE_CACHE_DIR", str(path))
        yield path
