"""The native 4×4 kernel and table builder: C compiled on first use, called through ctypes.

Why: a process that solves one 15-puzzle spent 0.4 s importing numba and 0.3 s loading its
cached kernel, and the numba kernel recomputes two seven-cell ranks per child. The C kernel
(``kernel4x4.c``) is the same search, node for node (see its header), with ranks updated along
each move; the C builder (``build4x4.c``) writes the same tables as :mod:`solver.search.pdb.build`
in a fifth of the memory.

How it is built: on first use, the system C compiler (``$CC``, else ``cc``, ``gcc`` or ``clang``)
compiles both files into one shared library, cached beside the pattern tables
(:func:`solver.fileio.cache_dir`) under a name that carries the sources' and the
command's hash, so an edited source or another machine type never loads a stale library. It
is written to a temporary name and renamed, so concurrent first runs are safe. No compiler,
a failed compile, or ``NPUZZLE_KERNEL=numba`` leaves everything to the numba code, which gives
the same answers; installing the package needs no compiler. ``NPUZZLE_KERNEL=native`` makes
a missing compiler an error instead (for benchmarks and CI).

ctypes releases the GIL during each call, so :mod:`solver.search.parallel` shares a search among
threads exactly as with numba.
"""

from __future__ import annotations

import ctypes
import math
import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from solver.board import Move
from solver.errors import SolverError
from solver.search.heuristic import MAX_PATTERN, PDB, Heuristic
from solver.search.move_pruning import pruning_table
from solver.search.pdb.layout import entry_cap, is_dense, is_quad

SOURCES = ("kernel4x4.c", "build4x4.c")
FLAGS = ("-O2", "-std=gnu99", "-fPIC", "-shared")
KERNEL_ENV = "NPUZZLE_KERNEL"
"""``auto`` (default: native where it compiles), ``numba`` (never native) or ``native`` (required)."""
NN, MAX_SETS, MAX_SLOTS = 16, 4, 8  # as in kernel4x4.c

_lock = threading.Lock()
_library: ctypes.CDLL | None = None
_failure: str | None = None


class NativeUnavailableError(SolverError, RuntimeError):
    """``NPUZZLE_KERNEL=native`` was asked for, but the library could not be built or loaded."""

    exit_code = 1


def choice() -> str:
    """The kernel asked for by ``$NPUZZLE_KERNEL``: ``auto``, ``numba`` or ``native``."""
    wanted = os.environ.get(KERNEL_ENV, "auto").strip().lower() or "auto"
    return wanted if wanted in ("auto", "numba", "native") else "auto"


def library() -> ctypes.CDLL | None:
    """The compiled library (built on first use), or ``None`` if unavailable or not wanted.

    Raises :class:`NativeUnavailableError` when ``NPUZZLE_KERNEL=native`` and it is unavailable.
    """
    global _library, _failure
    if choice() == "numba":
        return None
    with _lock:
        if _library is None and _failure is None:
            try:
                _library = _load(_compile())
            except (OSError, subprocess.SubprocessError, RuntimeError) as exc:
                _failure = str(exc)
    if _library is None and choice() == "native":
        raise NativeUnavailableError(f"the native kernel is unavailable: {_failure}")
    return _library


def unavailable_reason() -> str | None:
    """Why :func:`library` gave ``None`` (after it was called), for reports."""
    return "NPUZZLE_KERNEL=numba" if choice() == "numba" else _failure


def _compile(defines: tuple[str, ...] = ()) -> Path:
    """The library's path, compiled now unless a matching one is cached (``defines``: ``-D`` flags, for tests)."""
    from solver.fileio import compiled

    here = Path(__file__).parent
    return compiled([here / name for name in SOURCES], (*FLAGS, *defines), "native", ".so")


def _load(path: Path) -> ctypes.CDLL:
    lib = ctypes.CDLL(str(path))
    p, i = ctypes.c_void_p, ctypes.c_int64
    lib.search4.restype = i
    lib.search4.argtypes = [p, i, p, p, p, i, p, i, i, i, i, p, i, i, p, p, p, p]
    lib.build_dense.restype = i
    lib.build_dense.argtypes = [p, i, p, p, p, p, p, p, p]
    lib.build_tiles.restype = i
    lib.build_tiles.argtypes = []
    return lib


# --------------------------------------------------------------------------- the kernel
def spec_array(n: int, heuristic: Heuristic) -> np.ndarray | None:
    """The heuristic's layout as ``kernel4x4.c``'s ``Spec``, or ``None`` if the C kernel cannot run it.

    It runs pattern databases (no linear conflict) on 4×4 whose slots are dense tables of 2 to
    MAX_PATTERN tiles, or single tiles (always their Manhattan distance, so skipped): at most
    MAX_SETS sets and MAX_SLOTS dense slots, which the Spec numbers in order.
    """
    h = heuristic
    if n != 4 or h.kind != PDB or not 0 < h.sets <= MAX_SETS:
        return None
    slot_of = np.full((MAX_SETS, NN), -1, dtype=np.int64)
    pos_of = np.zeros((MAX_SETS, NN), dtype=np.int64)
    offset = np.zeros(MAX_SLOTS, dtype=np.int64)
    weight = np.zeros((MAX_SLOTS, MAX_PATTERN), dtype=np.int64)
    frame = np.zeros((MAX_SLOTS, NN), dtype=np.int64)
    quad = np.zeros(MAX_SLOTS, dtype=np.int64)
    native: dict[int, int] = {}  # the heuristic's dense slots, numbered for the Spec
    for s in range(h.sets):
        slots = h.slot[s * NN:(s + 1) * NN]
        for t in range(1, NN):
            sl = int(slots[t])
            k = int(h.dense[sl])
            if k == 0:
                if np.count_nonzero(slots[1:] == sl) != 1:
                    return None  # a sparse table of several tiles: the numba kernel's job
                continue
            members = [int(m) for m in h.members[sl * MAX_PATTERN:sl * MAX_PATTERN + k]]
            if k < 2 or t not in members:
                return None
            if sl not in native:
                if len(native) == MAX_SLOTS:
                    return None
                native[sl] = ns = len(native)
                offset[ns] = h.offset[sl]
                quad[ns] = is_quad(members)
                frame[ns] = h.cells[sl * NN:(sl + 1) * NN]
                w = 1
                for i in range(k - 1, -1, -1):
                    weight[ns, i] = w
                    w *= NN - i
            slot_of[s, t], pos_of[s, t] = native[sl], members.index(t)
    tile_weight, passed, moves = _move_tables(h.sets, slot_of, pos_of, frame, weight)
    # the per-set frame and moves an older kernel read (bench/kernels.py --against): each set's first slot's
    first = [int(slot_of[s][slot_of[s] >= 0][0]) if (slot_of[s] >= 0).any() else 0 for s in range(MAX_SETS)]
    set_frame = frame[first]
    set_unframe = np.argsort(set_frame, axis=1)
    return np.concatenate([[h.sets], slot_of.ravel(), pos_of.ravel(), set_frame.ravel(), set_unframe.ravel(),
                           offset, weight.ravel(), tile_weight.ravel(), passed.ravel(), moves[first].ravel(),
                           frame.ravel(), moves.ravel(), quad]).astype(np.int64)


SENTINEL = NN
"""The kernel's board has one cell more, always empty: a move that passes no cells names it three times."""


def _move_tables(sets: int, slot_of: np.ndarray, pos_of: np.ndarray, frame: np.ndarray,
                 weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the kernel needs to update a slot's rank along a move without a branch.

    A tile at pattern position i moving one cell in its slot's frame changes the slot's rank by
    ``sign * (mult * w[i] + sum of passed[t][u] over the tiles u in the cells it passes)``: sideways
    (mult 1) it passes nothing; up or down (mult 4) it passes three cells, and each tile u of its own
    slot there counts ``-w[i]`` if u comes before it in the pattern and ``+w[j]`` (u's own weight) if
    after. Returns ``tile_weight[s][t]`` (w[i]), ``passed[s][t][u]`` and ``moves[slot][b][k]`` = (sign,
    mult, three board cells, padding) for the tile that slides into blank cell b from direction k
    (UP, DOWN, LEFT, RIGHT, as the kernel orders them), the cells :data:`SENTINEL` when it passes none.
    """
    tile_weight = np.zeros((MAX_SETS, NN), dtype=np.int64)
    passed = np.zeros((MAX_SETS, NN, NN), dtype=np.int64)
    moves = np.zeros((MAX_SLOTS, NN, 4, 8), dtype=np.int64)
    for s in range(sets):
        for t in range(1, NN):
            sl = slot_of[s, t]
            if sl < 0:
                continue
            i = pos_of[s, t]
            tile_weight[s, t] = weight[sl, i]
            for u in range(1, NN):
                if u != t and slot_of[s, u] == sl:
                    j = pos_of[s, u]
                    passed[s, t, u] = -weight[sl, i] if j < i else weight[sl, j]
    for sl in range(MAX_SLOTS):
        if not frame[sl].any():
            continue  # no such slot
        unframe = np.argsort(frame[sl])  # the board cell seen as each cell
        for b in range(NN):
            r, c = divmod(b, 4)
            for k, move in enumerate(Move):  # the kernel's direction order is Move's
                dr, dc = move.value
                if not (0 <= r + dr < 4 and 0 <= c + dc < 4):
                    continue
                nb = (r + dr) * 4 + c + dc
                step = int(frame[sl, b] - frame[sl, nb])
                if abs(step) == 1:
                    moves[sl, b, k, :5] = (step, 1, SENTINEL, SENTINEL, SENTINEL)
                else:
                    lo = min(frame[sl, b], frame[sl, nb])
                    moves[sl, b, k, :5] = (1 if step > 0 else -1, 4, *unframe[lo + 1:lo + 4])
    return tile_weight, passed, moves


class NativeKernel:
    """``kernel4x4.c``'s search with one heuristic bound in; called like the numba kernel's wrapper."""

    def __init__(self, lib: ctypes.CDLL, heuristic: Heuristic, spec: np.ndarray) -> None:
        self.search, self.h, self.spec = lib.search4, heuristic, spec
        self.no_entries = np.zeros((1, 1), dtype=np.int64)
        self.no_counts = np.zeros((1, 4), dtype=np.int64)

    def __call__(self, board: np.ndarray, path: np.ndarray, counters: np.ndarray, limit: int, d0: int = 0,
                 bound: int = -1, single: bool = True, collect_depth: int = 0,
                 entries: np.ndarray | None = None, counts: np.ndarray | None = None,
                 pv: np.ndarray | None = None, best: np.ndarray | None = None, prune: np.ndarray | None = None) -> int:
        entries = self.no_entries if entries is None else entries
        counts = self.no_counts if counts is None else counts
        pv, best = route_arrays(path, pv, best)
        prune = pruning_table() if prune is None else prune
        assert prune.dtype == np.int16 and prune.flags.c_contiguous and prune.shape[1] == 4
        board = np.ascontiguousarray(board, dtype=np.int64)
        for array in (path, counters, entries, counts, pv, best):
            assert array.dtype == np.int64 and array.flags.c_contiguous  # the C code writes them as int64[]
        return int(self.search(board.ctypes.data, limit, self.h.pdb.ctypes.data, self.spec.ctypes.data,
                               path.ctypes.data, path.shape[0], counters.ctypes.data, d0, bound, int(single),
                               collect_depth, entries.ctypes.data, entries.shape[0], entries.shape[1],
                               counts.ctypes.data, pv.ctypes.data, best.ctypes.data, prune.ctypes.data))


def route_arrays(path: np.ndarray, pv: np.ndarray | None, best: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' ``pv`` and ``best`` (see :func:`solver.search.kernel._search`), fresh where not given.

    A fresh ``pv`` holds no route, so the search starts in plain direction order.
    """
    size = path.shape[0] + 2
    pv = np.zeros(size, dtype=np.int64) if pv is None else pv
    best = np.zeros(size, dtype=np.int64) if best is None else best
    if pv.shape[0] < size or best.shape[0] < size:
        raise ValueError(f"pv and best need {size} cells (the path's length + 2)")
    return pv, best


def remember_route(pv: np.ndarray, best: np.ndarray) -> None:
    """Make an iteration's ``best`` route the next one's ``pv``, as the kernels do between their own iterations."""
    if pv[0] >= 0:
        pv[0] = 0 if best[0] < 0 else best[1] + 1
        pv[1:pv[0] + 1] = best[2:pv[0] + 2]


_SPECS: dict[tuple[int, int], tuple[Heuristic, np.ndarray | None]] = {}
"""The last few heuristics' Specs: one takes over a millisecond to build, which Korf's 100 paid a
hundred times. Keyed by identity, holding the heuristic so that the id stays its; only a few, so
that heuristics over other tables (bench/pdb_partitions.py) are not kept alive."""
_SPECS_KEPT = 4


def native_kernel(n: int, heuristic: Heuristic) -> NativeKernel | None:
    """The C kernel for this heuristic, or ``None`` (not a layout it runs, or no library)."""
    key = (n, id(heuristic))
    with _lock:
        kept = _SPECS.get(key)
        if kept is None:
            while len(_SPECS) >= _SPECS_KEPT:
                del _SPECS[next(iter(_SPECS))]
            kept = _SPECS[key] = heuristic, spec_array(n, heuristic)
    spec = kept[1]
    if spec is None:
        return None
    lib = library()
    return None if lib is None else NativeKernel(lib, heuristic, spec)


# --------------------------------------------------------------------------- the builder
def can_build(n: int, tiles: tuple[int, ...]) -> bool:
    """Whether ``build4x4.c`` builds this table (4×4 dense tables) and a library built for its size loads."""
    if n != 4 or not is_dense(tiles) or len(tiles) > MAX_PATTERN:
        return False
    return builder(len(tiles)) is not None


_builders: dict[int, ctypes.CDLL | None] = {}


def builder(k: int) -> ctypes.CDLL | None:
    """A library whose builder makes tables of ``k`` tiles: :func:`library` itself for its own K (7), else
    one compiled with ``-DK=k`` (the 4×4 top eight's), once per process; ``None`` if unavailable."""
    lib = library()
    if lib is None or k == lib.build_tiles():
        return lib
    with _lock:
        if k not in _builders:
            try:
                _builders[k] = _load(_compile((f"-DK={k}",)))
            except (OSError, subprocess.SubprocessError, RuntimeError):
                _builders[k] = None
    return _builders[k]


def build_dense(tiles: tuple[int, ...], out: np.ndarray, progress: Callable[[int], None] | None = None,
                lib: ctypes.CDLL | None = None) -> int:
    """Build the dense 4×4 table of ``tiles`` into ``out`` (zeroed here), with ``lib`` (default: :func:`library`).

    Reports placements reached to ``progress`` as they grow. Returns the largest excess before
    the cap (:func:`solver.search.pdb.layout.entry_cap`). Raises ``ValueError`` if the tiles do not make a
    pattern table.
    """
    lib = lib or builder(len(tiles))
    assert lib is not None and len(tiles) == lib.build_tiles() and out.dtype == np.uint8
    placements = math.perm(NN, len(tiles))
    goal = np.array([t - 1 for t in tiles], dtype=np.int32)
    out[:] = 0
    reached = np.zeros((placements + 63) // 64, dtype=np.uint64)
    seen, layer, following = (np.zeros(placements * NN // 64, dtype=np.uint64) for _ in range(3))
    status = np.zeros(2, dtype=np.int64)  # placements reached so far, and a cancel flag
    result: list[int] = []

    def work() -> None:
        result.append(int(lib.build_dense(goal.ctypes.data, entry_cap(tiles), out.ctypes.data, reached.ctypes.data,
                                          seen.ctypes.data, layer.ctypes.data, following.ctypes.data,
                                          status[0:].ctypes.data, status[1:].ctypes.data)))

    worker = threading.Thread(target=work, name="pdb-build", daemon=True)
    worker.start()
    told = 0
    try:
        while worker.is_alive():
            worker.join(0.2)
            now = int(status[0])
            if progress and now > told:
                progress(now - told)
                told = now
    except BaseException:
        status[1] = 1  # Ctrl-C: the builder stops at its next check
        worker.join()
        raise
    if result and result[0] == -3:
        raise MemoryError("no memory for the table builder's 1 MB region table")
    if not result or result[0] < 0:
        raise ValueError(f"pattern {tiles} on 4x4: not a pattern table (an odd or negative excess)")
    if progress and int(status[0]) > told:
        progress(int(status[0]) - told)
    return result[0]


def warm_up() -> tuple[str, float]:
    """Build or load the library now: ("native" or why not, seconds), for the tables report."""
    began = time.perf_counter()
    try:
        lib = library()
    except NativeUnavailableError as exc:
        return str(exc), time.perf_counter() - began
    return ("native (C, " + ", ".join(SOURCES) + ")" if lib is not None else f"numba ({unavailable_reason()})",
            time.perf_counter() - began)
