"""solve(): the right algorithm per size, the same optimum from every algorithm, light imports for 3×3."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.pdb import database as pdb
from solver.solve import ALGORITHMS, auto_algorithm, solve
from tests.solver.helpers import KORF_SAMPLE, assert_legal_path, random_solvable
from tests.support import REPO

PRINCETON_5X5_44 = [6, 7, 5, 10, 15, 3, 2, 8, 0, 4, 1, 12, 20, 13, 9, 11, 16, 19, 14, 24, 21, 17, 22, 18, 23]


def test_auto_picks_table_pdb_or_idastar_by_size():
    assert [auto_algorithm(n) for n in (2, 3, 4, 5, 6, 10)] == ["table", "table", "pdb", "pdb", "idastar", "idastar"]
    assert set(ALGORITHMS) == {"auto", "astar", "idastar", "table", "pdb"}


@pytest.mark.parametrize("algorithm", ["auto", "astar", "idastar", "table"])
def test_every_algorithm_finds_the_optimum_on_3x3(table3, algorithm):
    rng = random.Random(21)
    for _ in range(20):
        board = random_solvable(rng, 3)
        result = solve(board, algorithm)
        assert_legal_path(result.path, board)
        assert result.moves == table3[board.tiles]


def test_auto_on_4x4_uses_pattern_databases(pdb_cache):
    length, *tiles = map(int, KORF_SAMPLE[1].split())
    result = solve(Board.from_tiles(tiles))
    assert result.algorithm == "pdb" and result.moves == length
    assert solve(Board.from_tiles(tiles), "pdb", "linear-conflict").moves == length


def test_auto_on_5x5_tries_linear_conflict_before_building_tables(monkeypatch, tmp_path):
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path))  # no 5×5 tables there
    monkeypatch.setattr(pdb, "_TABLES", {})  # nor in this process, whatever an earlier test loaded
    result = solve(Board.from_tiles(PRINCETON_5X5_44))
    assert result.moves == 44 and result.algorithm == "idastar"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_unsolvable_boards_give_no_path(algorithm, pdb_cache):
    board = Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0])
    if algorithm == "table":
        board = Board.from_tiles([1, 2, 3, 4, 5, 6, 8, 7, 0])
    assert solve(board, algorithm).path is None


def test_algorithms_refuse_sizes_they_cannot_handle():
    with pytest.raises(ValueError, match="2x2 and 3x3 only"):
        solve(Board.goal(4), "table")
    with pytest.raises(ValueError, match="4x4, 5x5 only"):
        solve(Board.goal(3), "pdb")
    with pytest.raises(ValueError, match="unknown algorithm"):
        solve(Board.goal(3), "dijkstra")


def test_node_limit_reaches_the_user_as_search_limit_error(pdb_cache):
    _, *tiles = map(int, KORF_SAMPLE[3].split())
    with pytest.raises(SearchLimitError, match="node limit 10"):
        solve(Board.from_tiles(tiles), "pdb", node_limit=10)
    with pytest.raises(SearchLimitError, match="node limit 10"):
        solve(Board.from_tiles(tiles), "idastar", "manhattan", node_limit=10)


def test_solving_3x3_imports_neither_numpy_nor_numba(tmp_path):
    (tmp_path / "input.txt").write_text("3\n8 6 7\n2 5 4\n3 0 1\n")
    code = ("import sys, json; from solver.cli import entry; rc = entry([]); "
            "print(json.dumps([rc, 'numba' in sys.modules, 'numpy' in sys.modules]))")
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout, whatever the editable install points at
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True,
                         env=env)
    assert json.loads(out.stdout.splitlines()[-1]) == [0, False, False]
    assert (tmp_path / "output.txt").read_text().startswith("Minimum number of moves = 31\n")
