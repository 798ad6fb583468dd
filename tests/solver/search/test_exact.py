"""Exact tables: the shipped 3×3 table is the breadth-first truth, and solving walks it optimally."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.board import Board
from solver.search import exact
from solver.search.exact import build_table, distance, exact_table, rank, solve_exact, table_key
from solver.search.tablecache import encode_table, read_table
from tests.solver.helpers import assert_legal_path, random_solvable


def test_rank_numbers_the_permutations_of_four_in_order():
    perms = list(itertools.permutations(range(4)))
    assert [rank(p) for p in perms] == list(range(24))


def test_shipped_3x3_table_holds_every_distance_of_an_independent_bfs(table3):
    table = exact_table(3)
    assert len(table) == 362_880
    assert sum(code != exact.UNREACHABLE for code in table) == len(table3) == 181_440
    for tiles, dist in table3.items():
        assert table[rank(tiles)] & 31 == dist


def test_2x2_table_matches_the_bfs(table2):
    for tiles in itertools.permutations(range(4)):
        board = Board(tiles, 2)
        assert distance(board) == table2.get(tiles, -1)


def test_the_two_31_move_positions_are_the_maximum():
    for tiles in ([8, 6, 7, 2, 5, 4, 3, 0, 1], [6, 4, 7, 8, 5, 0, 3, 2, 1]):
        board = Board.from_tiles(tiles)
        result = solve_exact(board)
        assert result.moves == 31
        assert_legal_path(result.path, board)
    assert max(code & 31 for code in exact_table(3) if code != exact.UNREACHABLE) == 31


def test_walk_gives_legal_optimal_paths_and_each_first_move_is_the_first_optimal_one(table3):
    rng = random.Random(3)
    for _ in range(300):
        board = random_solvable(rng, 3)
        result = solve_exact(board)
        assert_legal_path(result.path, board)
        assert result.moves == table3[board.tiles]
        # deterministic tie-break: the first successor (UP, DOWN, LEFT, RIGHT) one move nearer
        if result.moves:
            first = next(b for _, b in board.successors() if table3[b.tiles] == result.moves - 1)
            assert result.path[1] == first


def test_other_parity_class_is_unsolvable():
    board = Board.from_tiles([2, 1, 3, 4, 5, 6, 7, 8, 0])
    assert distance(board) == -1
    assert solve_exact(board).path is None


def test_damaged_shipped_table_is_not_trusted_but_rebuilt_into_the_cache(tmp_path, monkeypatch):
    good = exact_table(3)
    damaged = bytearray(encode_table(table_key(3), good))
    damaged[-100] ^= 0x01
    shipped = tmp_path / "exact3x3.bin"
    shipped.write_bytes(bytes(damaged))
    monkeypatch.setattr(exact, "SHIPPED", shipped)
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path / "cache"))
    exact_table.cache_clear()
    try:
        assert exact_table(3) == good
    finally:
        exact_table.cache_clear()
    assert read_table(tmp_path / "cache" / f"{table_key(3)}.bin", table_key(3)) == good


def test_only_2x2_and_3x3_have_exact_tables():
    with pytest.raises(ValueError, match="2x2 and 3x3 only"):
        build_table(4)
    with pytest.raises(ValueError, match="2x2 and 3x3 only"):
        solve_exact(Board.goal(4))
