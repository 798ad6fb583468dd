"""The 4×4 pattern tables shipped with the package: unpacked on first use, verified like the cache, and
never trusted when damaged."""

from __future__ import annotations

import lzma
import time
from pathlib import Path

import numpy as np
import pytest

import solver.search.pdb.database as pdb
from solver.search.pdb.database import CACHED, UNPACKED, load_table, load_tables
from solver.search.pdb.layout import patterns, table_key
from solver.search.tablecache import CorruptTableError, encode_table, pack_for_shipping, shipped_path
from solver.tables_cli import _against_shipped

SMALL = (13, 14, 15)
"""A 4×4 pattern whose table builds in a moment: the stand-in for the shipped 7- and 8-tile ones."""


def test_the_package_ships_every_4x4_table_of_several_tiles():
    for tiles in patterns(4):
        shipped = shipped_path(pdb.SHIPPED_TABLES, table_key(4, tiles))
        assert shipped.is_file() == (len(tiles) > 1), shipped


def test_a_fresh_cache_unpacks_the_4x4_tables_in_seconds_and_keeps_them(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path))
    began = time.monotonic()
    infos = load_tables(4, patterns(4), show_progress=False)
    assert time.monotonic() - began < 30  # building the top eight takes about 5 minutes; unpacking about 3 s
    for info in infos:
        assert info.status == (UNPACKED if len(info.tiles) > 1 else "built"), info
        assert info.path.is_file()
    assert {info.status for info in load_tables(4, patterns(4), show_progress=False)} == {CACHED}


def test_the_shipped_tables_are_the_ones_the_builder_makes(pdb_cache):
    """The session's cache holds tables built from source (CI builds them with --rebuild first)."""
    for tiles in patterns(4):
        if len(tiles) > 1:
            built = load_table(4, tiles, show_progress=False).table
            assert _against_shipped(4, tiles, built, write=False) is None


@pytest.fixture
def shipped_small(tmp_path: Path, monkeypatch) -> tuple[Path, np.ndarray]:
    """SMALL built into a cache, its shipped copy made from it, and both folders in place: (shipped file, table)."""
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path / "built"))
    monkeypatch.setattr(pdb, "SHIPPED_TABLES", tmp_path / "shipped")
    built = load_table(4, SMALL, show_progress=False)
    assert built.status == "built"
    shipped = shipped_path(tmp_path / "shipped", table_key(4, SMALL))
    pack_for_shipping(built.path, shipped)
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path / "fresh"))
    return shipped, built.table.copy()


def test_a_shipped_copy_gives_the_built_table(shipped_small):
    _, table = shipped_small
    info = load_table(4, SMALL, show_progress=False)
    assert info.status == UNPACKED
    assert np.array_equal(info.table, table)
    assert load_table(4, SMALL, show_progress=False).status == CACHED


def _replace_payload(shipped: Path, change) -> None:
    data = bytearray(lzma.decompress(shipped.read_bytes()))
    change(data)
    shipped.write_bytes(lzma.compress(bytes(data)))


@pytest.mark.parametrize(("damage", "reason"), [
    ("garbage", "not a readable xz stream"),
    ("truncated", "not a readable xz stream"),
    ("flipped byte", "checksum mismatch"),
    ("other table", "holds table 'pdb-4x4-1.2-dense6-v1'"),
])
def test_a_damaged_shipped_copy_is_named_and_the_table_built_instead(shipped_small, damage, reason):
    shipped, table = shipped_small
    if damage == "garbage":
        shipped.write_bytes(b"not xz at all")
    elif damage == "truncated":
        shipped.write_bytes(shipped.read_bytes()[:-40])
    elif damage == "flipped byte":
        _replace_payload(shipped, lambda data: data.__setitem__(-5, (data[-5] + 1) % 256))
    else:
        shipped.write_bytes(lzma.compress(encode_table("pdb-4x4-1.2-dense6-v1", bytes(table))))
    info = load_table(4, SMALL, show_progress=False)
    assert info.status.startswith("built; the shipped copy is damaged: ")
    assert str(shipped) in info.status and reason in info.status
    assert np.array_equal(info.table, table)


def test_check_shipped_names_a_table_that_differs_or_is_missing(shipped_small):
    shipped, table = shipped_small
    assert _against_shipped(4, SMALL, table, write=False) is None
    other = table.copy()
    other[len(other) // 2] ^= 1
    assert _against_shipped(4, SMALL, other, write=False) == f"differs from the shipped copy {shipped}"
    shipped.unlink()
    assert _against_shipped(4, SMALL, table, write=False) == f"no shipped copy ({shipped})"
    assert _against_shipped(4, (8,), table[:6], write=False) is None  # one tile: nothing ships


def test_unpacking_refuses_a_copy_of_another_size(shipped_small):
    from solver.search.tablecache import unpack_shipped

    shipped, table = shipped_small
    with pytest.raises(CorruptTableError, match="expected"):
        unpack_shipped(shipped, table_key(4, SMALL), memoryview(np.empty(len(table) + 1, np.uint8)), None)


def test_without_its_shipped_copy_or_a_compiler_the_top_eight_is_a_clear_error(tmp_path: Path, monkeypatch):
    """The numba builder would need gigabytes for the 4×4 top eight: it is not tried."""
    from solver.search import native

    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pdb, "SHIPPED_TABLES", tmp_path / "shipped")
    monkeypatch.setattr(native, "_library", None)
    monkeypatch.setattr(native, "_failure", None)
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(pdb.TableUnavailableError, match=r"only the C builder can build it.*no C compiler"):
        load_table(4, (1, 2, 3, 4, 5, 6, 7, 8), show_progress=False)
