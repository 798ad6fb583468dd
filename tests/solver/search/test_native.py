"""The native 4×4 kernel and builder: the numba search and tables exactly, and numba whenever C is unavailable."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import solver.search.pdb.layout as pdb_layout
from solver.board import Board
from solver.errors import SearchLimitError
from solver.search import native, parallel
from solver.search.heuristic import simple_heuristic
from solver.search.idastar import run
from solver.search.pdb.build import build_table, pack_table
from solver.search.pdb.database import pdb_heuristic
from tests.solver.helpers import KORF_SAMPLE
from tests.solver.search.test_parallel import WALKS
from tests.support import REPO, require_tool


@pytest.fixture(autouse=True)
def compiler():
    require_tool("cc")


def outcome(board, heuristic, monkeypatch, kernel, threads=1, node_limit=None):
    monkeypatch.setenv(native.KERNEL_ENV, kernel)
    try:
        result = run(board, heuristic, "pdb", node_limit, threads=threads)
    except SearchLimitError as exc:
        return "limit", exc.expanded, exc.bound
    return result.path, result.expanded, result.generated


def test_native_kernel_is_the_numba_search_node_for_node(pdb_cache, monkeypatch):
    heuristic = pdb_heuristic(4)
    boards = [Board.from_tiles([int(t) for t in line.split()[1:]]) for line in KORF_SAMPLE] + WALKS
    for board in boards:
        expected = outcome(board, heuristic, monkeypatch, "numba")
        assert outcome(board, heuristic, monkeypatch, "native") == expected, board


def test_native_kernel_splits_among_threads_and_stops_at_the_same_node_limit(pdb_cache, monkeypatch):
    monkeypatch.setattr(parallel, "SPLIT_FROM", 1)  # share even tiny iterations: every split path runs
    monkeypatch.setattr(parallel, "ENTRIES_PER_THREAD", 3)
    heuristic = pdb_heuristic(4)
    board = Board.from_tiles([int(t) for t in KORF_SAMPLE[0].split()[1:]])
    for limit in (None, 0, 7, 2_000):
        expected = outcome(board, heuristic, monkeypatch, "numba", node_limit=limit)
        for threads in (1, 2, 3):
            assert outcome(board, heuristic, monkeypatch, "native", threads, limit) == expected, (limit, threads)


def test_the_kernel_is_chosen_by_layout_and_environment(pdb_cache, monkeypatch):
    heuristic = pdb_heuristic(4)
    monkeypatch.setenv(native.KERNEL_ENV, "auto")
    assert isinstance(parallel.kernel_for(4, heuristic), native.NativeKernel)
    # layouts the C kernel does not run stay with numba: linear conflict, plain heuristics
    assert not isinstance(parallel.kernel_for(4, pdb_heuristic(4, with_linear_conflict=True)), native.NativeKernel)
    assert not isinstance(parallel.kernel_for(4, simple_heuristic(4, "manhattan")), native.NativeKernel)
    monkeypatch.setenv(native.KERNEL_ENV, "numba")
    assert not isinstance(parallel.kernel_for(4, heuristic), native.NativeKernel)


def test_without_a_compiler_numba_answers_and_native_on_demand_is_a_clear_error(pdb_cache, monkeypatch):
    monkeypatch.setattr(native, "_library", None)
    monkeypatch.setattr(native, "_failure", None)
    monkeypatch.setenv("CC", "no-such-compiler-here")
    monkeypatch.setenv(native.KERNEL_ENV, "auto")
    board = Board.from_tiles([int(t) for t in KORF_SAMPLE[1].split()[1:]])
    result = run(board, pdb_heuristic(4), "pdb", threads=1)
    assert result.moves == int(KORF_SAMPLE[1].split()[0])
    assert "no C compiler" in native.unavailable_reason()
    monkeypatch.setenv(native.KERNEL_ENV, "native")
    with pytest.raises(native.NativeUnavailableError, match="no C compiler"):
        run(board, pdb_heuristic(4), "pdb", threads=1)


@pytest.mark.parametrize(("tiles", "quad"), [((1, 2, 5, 6), False), ((9, 10, 13, 14, 15), False),
                                             ((9, 10, 13, 14, 15), True), ((11, 12, 15), True)])
def test_native_builder_writes_the_numba_builders_bytes(tmp_path, monkeypatch, tiles, quad):
    """Compiled for a smaller K, the C builder must give byte for byte the numba builder's dense table,
    in either packing (quad: the 2-bit one of the 4×4 top eight)."""
    monkeypatch.setenv("NPUZZLE_CACHE_DIR", str(tmp_path))
    lib = native._load(native._compile((f"-DK={len(tiles)}", f"-DQUAD={int(quad)}")))
    monkeypatch.setattr(pdb_layout, "DENSE_FROM", len(tiles))
    monkeypatch.setattr(pdb_layout, "QUAD_FROM", len(tiles) if quad else 99)
    expected = pack_table(4, tiles, build_table(4, tiles))
    built = np.empty_like(expected)
    reached = []
    worst = native.build_dense(tiles, built, reached.append, lib=lib)
    assert bytes(built) == bytes(expected)
    assert sum(reached) == pdb_layout.placements(4, len(tiles))  # the progress bar ends full
    assert 2 * min(worst, pdb_layout.entry_cap(tiles)) == pdb_layout.max_excess(tiles, built)


def test_a_4x4_solve_with_built_tables_never_imports_numba(pdb_cache):
    """The point of the native kernel for a one-board process: no 0.4 s numba import, no kernel load."""
    code = ("import sys; from solver.solve import solve; from solver.board import Board; "
            f"r = solve(Board.from_tiles({[int(t) for t in KORF_SAMPLE[0].split()[1:]]})); "
            "print(r.moves, 'numba' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(REPO), native.KERNEL_ENV: "native"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.stdout.split() == [KORF_SAMPLE[0].split()[0], "False"], done.stderr


def test_a_heuristics_spec_is_built_once_and_only_the_last_few_are_kept(pdb_cache, monkeypatch):
    from solver.search.pdb.database import heuristic_from_tables, pdb_tables

    built = []
    real = native.spec_array
    monkeypatch.setattr(native, "spec_array", lambda n, h: built.append(h) or real(n, h))
    monkeypatch.setattr(native, "_SPECS", {})
    flat, starts = pdb_tables(4)
    heuristic = heuristic_from_tables(4, pdb_layout.PARTITIONS[4], flat, starts, flipped=True)
    first, second = native.native_kernel(4, heuristic), native.native_kernel(4, heuristic)
    assert first is not None and second.spec is first.spec and built == [heuristic]
    others = [heuristic_from_tables(4, pdb_layout.PARTITIONS[4], flat, starts) for _ in range(native._SPECS_KEPT)]
    for other in others:
        native.native_kernel(4, other)
    assert len(native._SPECS) == native._SPECS_KEPT and all(h is not heuristic for h, _ in native._SPECS.values())
