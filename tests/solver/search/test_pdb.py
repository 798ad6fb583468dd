"""Pattern databases: admissible and (where promised) consistent, cached files verified and rebuilt."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import solver.search.pdb.layout as pdb_layout
from solver.board import Board
from solver.cli import entry
from solver.search.pdb.build import build_table, pack_table, splits_free_cells
from solver.search.pdb.database import load_table, pdb_tables
from solver.search.pdb.layout import (
    PARTITIONS,
    dense_rank,
    max_excess,
    pattern_value,
    placements,
    table_bytes,
    table_key,
)
from solver.search.tablecache import CorruptTableError, read_table, write_table
from tests.solver.helpers import KORF_SAMPLE, random_solvable


def test_one_tile_tables_are_that_tiles_manhattan_distance():
    table = build_table(3, (5,))
    for pos in range(9):
        assert table[pos] == abs(pos // 3 - 1) + abs(pos % 3 - 1)
    assert not pack_table(3, (5,), table).any()  # no excess over Manhattan anywhere


def test_additive_3x3_tables_never_exceed_the_exact_distance(table3):
    partition = ((1, 2, 3, 4), (5, 6, 7, 8))
    tables = [pack_table(3, tiles, build_table(3, tiles)) for tiles in partition]
    below = 0
    for tiles, dist in table3.items():
        value = sum(pattern_value(3, p, t, tiles) for p, t in zip(partition, tables))
        assert value <= dist
        below += value < dist
    assert below < len(table3)  # not a trivial lower bound: many entries are exact


def test_3x3_tables_are_consistent_where_no_pattern_cuts_the_board(table3):
    partition = ((1, 2, 3, 4), (5, 6, 7, 8))
    tables = [pack_table(3, tiles, build_table(3, tiles)) for tiles in partition]
    rng = random.Random(5)
    for _ in range(2000):
        board = random_solvable(rng, 3)
        for child in board.neighbors():
            values = [sum(pattern_value(3, p, t, b.tiles) for p, t in zip(partition, tables)) for b in (board, child)]
            cut = any(splits_free_cells(3, p, b.tiles) for p in partition for b in (board, child))
            if not cut:
                assert abs(values[0] - values[1]) <= 1


@pytest.mark.parametrize("which", range(len(PARTITIONS[4])))
def test_4x4_tables_are_admissible_on_korf_instances_and_random_walks(pdb_cache, which):
    flat, starts = pdb_tables(4)
    partition = PARTITIONS[4][which]
    tables = [flat[starts[p]:starts[p] + table_bytes(4, p)] for p in partition]

    def h(tiles):
        return sum(pattern_value(4, p, t, tiles) for p, t in zip(partition, tables))

    assert h(Board.goal(4).tiles) == 0
    for line in KORF_SAMPLE:
        length, *tiles = map(int, line.split())
        assert 0 < h(tuple(tiles)) <= length
    rng = random.Random(9)
    for _ in range(100):
        board = Board.goal(4)
        for step in range(1, 60):
            before = h(board.tiles)
            child = rng.choice(board.neighbors())
            after = h(child.tiles)
            assert after <= step + h(Board.goal(4).tiles)
            if not any(splits_free_cells(4, p, b.tiles) for p in partition for b in (board, child)):
                assert abs(after - before) <= 1
            board = child


def test_table_file_roundtrip_and_every_kind_of_damage_is_detected(tmp_path: Path):
    path = tmp_path / "t.bin"
    write_table(path, "k", b"payload" * 100)
    assert read_table(path, "k") == b"payload" * 100
    assert read_table(tmp_path / "missing.bin", "k") is None
    with pytest.raises(CorruptTableError, match="expected 'other'"):
        read_table(path, "other")
    data = path.read_bytes()
    path.write_bytes(data[:-1])
    with pytest.raises(CorruptTableError, match="truncated"):
        read_table(path, "k")
    path.write_bytes(data[:-3] + b"XYZ")
    with pytest.raises(CorruptTableError, match="checksum"):
        read_table(path, "k")
    path.write_bytes(b"garbage")
    with pytest.raises(CorruptTableError, match="magic"):
        read_table(path, "k")


def test_truncated_or_corrupted_cache_file_is_rebuilt_never_trusted(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path))
    tiles = (13, 14, 15)
    first = load_table(4, tiles, show_progress=False)
    assert first.status == "built"
    path = tmp_path / f"{table_key(4, tiles)}.bin"
    assert first.path == path
    assert load_table(4, tiles, show_progress=False).status == "cached"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    again = load_table(4, tiles, show_progress=False)
    assert again.status.startswith("rebuilt (size")
    assert (again.table == first.table).all()
    damaged = bytearray(path.read_bytes())
    damaged[-10] = (damaged[-10] + 1) % 256
    path.write_bytes(bytes(damaged))
    again = load_table(4, tiles, show_progress=False)
    assert again.status.startswith("rebuilt (checksum")
    assert (again.table == first.table).all()
    assert load_table(4, tiles, show_progress=False).status == "cached"


def test_tables_command_builds_verifies_and_reports(pdb_cache, capsys):
    assert entry(["tables", "--samples", "40"]) == 0
    out = capsys.readouterr().out
    for name in ("2x2 exact", "3x3 exact", "4x4 pdb 1-2-3-4-5-6-7-8", "4x4 pdb 9-10-11-12-13-14-15",
                 "4x4 pdb sum #1"):
        line = next(line for line in out.splitlines() if line.startswith(name))
        assert line.rstrip().endswith("ok"), line
    assert f"cache folder: {pdb_cache}" in out
    assert "4x4 pattern-database kernel and builder: " in out  # native, or numba and why
    assert "numba kernel (other sizes and heuristics) ready in" in out


def test_unwritable_cache_still_gives_the_table(tmp_path: Path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(blocker / "cache"))
    info = load_table(4, (13, 14, 15), show_progress=False)
    assert info.status.startswith("built, not cached:")
    assert pattern_value(4, (13, 14, 15), info.table, Board.goal(4).tiles) == 0


def test_dense_ranks_number_every_placement_once():
    ranks = {dense_rank(4, cells) for cells in itertools.permutations(range(16), 3)}
    assert ranks == set(range(placements(4, 3)))
    assert dense_rank(4, (0, 1, 2)) == 0 and dense_rank(4, (15, 14, 13)) == placements(4, 3) - 1


def boards_placing(tiles: tuple[int, ...]) -> list[list[int]]:
    """A board for every placement of ``tiles`` (every other cell 0), in the order of the placements' cells."""
    boards = []
    for cells in itertools.permutations(range(16), len(tiles)):
        board = [0] * 16
        for t, c in zip(tiles, cells):
            board[c] = t
        boards.append(board)
    return boards


def test_dense_and_sparse_layouts_hold_the_same_values(monkeypatch):
    tiles = (11, 12, 15)
    dist = build_table(4, tiles)
    sparse = pack_table(4, tiles, dist)
    most = max_excess(tiles, sparse)
    assert 0 < most <= 2 * pdb_layout.DENSE_CAP  # nothing capped: the layouts must agree everywhere
    boards = boards_placing(tiles)
    expected = [pattern_value(4, tiles, sparse, board) for board in boards]
    monkeypatch.setattr(pdb_layout, "DENSE_FROM", 3)
    dense = pack_table(4, tiles, dist)
    assert dense.shape == ((placements(4, 3) + 2) // 3,) and sparse.shape == (16 ** 3 // 2,)
    assert max_excess(tiles, dense) == most
    assert [pattern_value(4, tiles, dense, board) for board in boards] == expected


def test_a_quad_table_holds_each_entry_up_to_its_cap(monkeypatch):
    """The 2-bit layout of the 4×4 top eight, on a table small enough to build here (its largest
    excess is 2, so the cap is lowered to 1 to be exercised)."""
    tiles = (11, 12, 15)
    dist = build_table(4, tiles)
    sparse = pack_table(4, tiles, dist)
    boards, expected = boards_placing(tiles), []
    for board in boards:
        manhattan = sum(abs(board.index(t) // 4 - (t - 1) // 4) + abs(board.index(t) % 4 - (t - 1) % 4) for t in tiles)
        expected.append(manhattan + 2 * min((pattern_value(4, tiles, sparse, board) - manhattan) // 2, 1))
    assert max_excess(tiles, sparse) > 2
    monkeypatch.setattr(pdb_layout, "DENSE_FROM", 3)
    monkeypatch.setattr(pdb_layout, "QUAD_FROM", 3)
    monkeypatch.setattr(pdb_layout, "QUAD_CAP", 1)
    quad = pack_table(4, tiles, dist)
    assert quad.shape == ((placements(4, 3) + 3) // 4,)
    assert max_excess(tiles, quad) == 2
    assert [pattern_value(4, tiles, quad, board) for board in boards] == expected


@pytest.mark.parametrize(("n", "tile"), [(3, 5), (4, 8), (5, 13)])
def test_one_tile_tables_are_written_without_a_search_as_the_builder_would(tmp_path, monkeypatch, n, tile):
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path))
    info = load_table(n, (tile,), show_progress=False)
    assert info.status == "built"
    assert bytes(info.table) == bytes(pack_table(n, (tile,), build_table(n, (tile,))))
