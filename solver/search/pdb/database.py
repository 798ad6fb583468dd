"""Additive disjoint pattern databases (Korf & Felner): building, caching and loading them.

A pattern is a set of tiles. Its table gives, for every placement of those tiles, the
fewest moves *of pattern tiles* needed to bring them home, found by a breadth-first search
from the goal that tracks the blank: the blank may wander through the cells the pattern does
not occupy for free (a flood fill of its region), and moving a pattern tile into it costs
one. Since each move moves one tile, the tables of disjoint patterns add up to an admissible
heuristic. A placement's entry is its best over the blank's regions, so where the pattern cuts
the free cells in two a single move can change it by more than one (in the 4×4 seven-tile
tables, about 3% of the moves a tile can make between placements): the heuristic is not
consistent there, which IDA* does not need. (Tables that let the blank jump anywhere are
consistent and far weaker: 63 times the nodes on Korf's 100, measured.) The heuristic reads the
tables through every symmetric view of the partition that is admissible
(:mod:`solver.search.pdb.views`).

An entry holds half the moves the pattern needs beyond its tiles' Manhattan distance (that
excess is always even), so the heuristic is ``Manhattan + 2 * sum(entries)``. Two layouts:

- sparse, for patterns of up to 6 tiles: index ``sum(cell of pattern tile i * (N²)**i)``,
  which the search updates with one multiply-add when a tile moves; 4 bits per entry;
- dense, for 7 tiles and more (a sparse 7-tile 4×4 table would take 134 MB): the rank of the
  placement among all ``N²!/(N²-k)!`` of them, ``rank = rank * (N² - i) + (cell_i - number of
  earlier pattern tiles on lower cells)``. For 7 tiles, three entries per byte in base 6 (19 MB);
  entries above 5 (a few thousand of 57 million in the 4×4 bottom seven's table) are stored as 5.
  For 8 tiles (*quad*), four 2-bit entries per byte (130 MB for the 4×4 top eight); entries above
  3 (8% of its 519 million) are stored as 3. Either cap keeps the heuristic admissible.

Tables are cached in :func:`solver.fileio.cache_dir` (``$NPUZZLE_CACHE_DIR`` to
override). On first use a table comes from its shipped copy if the package has one
(:data:`SHIPPED_TABLES`: the 4×4 tables, unpacked in about a second), else it is built (with a
progress bar when stderr is a terminal). Damaged files are detected by size and checksum and
replaced.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.errors import OutputError, SolverError
from solver.fileio import cache_dir
from solver.search.heuristic import MAX_PATTERN, PDB, PDB_LC, Heuristic
from solver.search.pdb.layout import (
    PARTITIONS,
    Progress,
    check_table,
    is_dense,
    is_quad,
    patterns,
    placements,
    table_bytes,
    table_key,
)
from solver.search.pdb.views import frame_cells, view_tiles, views_for
from solver.search.tablecache import (
    CorruptTableError,
    read_table_into,
    shipped_path,
    unpack_shipped,
    write_table,
)


# --------------------------------------------------------------------------- cache and loading
class TableUnavailableError(SolverError, RuntimeError):
    """A table with no usable copy that cannot be built here: a quad table (the 4×4 top eight's) needs the
    C builder, and the numba one would need gigabytes for its distances."""

    exit_code = 1


@dataclass(frozen=True)
class TableInfo:
    """How one table was obtained: for ``python -m solver tables``."""

    tiles: tuple[int, ...]
    path: Path
    status: str  # CACHED, UNPACKED, "built" or "rebuilt (<reason>)"
    seconds: float
    table: np.ndarray


def _terminal_progress(label: str, total: int) -> tuple[Progress, Callable[[], None]]:
    import click

    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    bar.__enter__()
    return bar.update, lambda: bar.__exit__(None, None, None)


def load_table(n: int, tiles: Sequence[int], show_progress: bool | None = None, rebuild: bool = False,
               out: np.ndarray | None = None) -> TableInfo:
    """One pattern database from the cache, built (and cached) if missing or damaged.

    With ``out`` (a uint8 array of :func:`table_bytes`), the table is read straight into it.
    """
    return load_tables(n, [tiles], show_progress, rebuild, None if out is None else [out])[0]


def load_tables(n: int, patterns_: Sequence[Sequence[int]], show_progress: bool | None = None,
                rebuild: bool = False, outs: Sequence[np.ndarray] | None = None) -> list[TableInfo]:
    """Pattern databases from the cache; those missing or damaged are built at once, one per thread.

    The builder releases the GIL, so two 7-tile 4×4 tables take about as long as one. (The 4×4 top
    eight's takes about 5 minutes and 3.3 GB: it is shipped, and built only by ``--rebuild`` or
    when its shipped copy is damaged.)
    """
    from concurrent.futures import ThreadPoolExecutor

    from solver.search.parallel import threads_available

    wanted = [tuple(tiles) for tiles in patterns_]
    tables = list(outs) if outs is not None else [np.empty(table_bytes(n, t), dtype=np.uint8) for t in wanted]
    infos: list[TableInfo | None] = [None] * len(wanted)
    to_build: list[tuple[int, str, float]] = []
    for i, tiles in enumerate(wanted):
        began = time.perf_counter()
        status = _read_cached(n, tiles, tables[i], rebuild, show_progress)
        if status in (CACHED, UNPACKED):
            infos[i] = TableInfo(tiles, table_path(n, tiles), status, time.perf_counter() - began, tables[i])
        else:
            to_build.append((i, status, began))
    if to_build:
        if show_progress is None:
            show_progress = sys.stderr.isatty()
        names = ", ".join("-".join(map(str, wanted[i])) for i, _, _ in to_build)
        total = sum(placements(n, len(wanted[i])) for i, _, _ in to_build)
        progress, done = (_terminal_progress(f"Building {n}x{n} pattern tables {names}", total)
                          if show_progress else (None, lambda: None))
        lock = threading.Lock()

        def update(count: int) -> None:
            with lock:
                if progress is not None:
                    progress(count)

        def build(job: tuple[int, str, float]) -> TableInfo:
            i, status, began = job
            return _build_into(n, wanted[i], tables[i], status, began, update if progress else None)

        try:
            with ThreadPoolExecutor(max(1, min(len(to_build), threads_available()))) as pool:
                for (i, _, _), info in zip(to_build, pool.map(build, to_build)):
                    infos[i] = info
        finally:
            done()
    return [info for info in infos if info is not None]


def table_path(n: int, tiles: tuple[int, ...]) -> Path:
    """Where the cache keeps the table of ``tiles`` on N×N."""
    return cache_dir() / f"{table_key(n, tiles)}.bin"


SHIPPED_TABLES = Path(__file__).with_name("tables")
"""The tables that ship with the package (the 4×4 ones), xz-compressed table files."""
CACHED, UNPACKED = "cached", "unpacked (shipped with the package)"


def _read_cached(n: int, tiles: tuple[int, ...], table: np.ndarray, rebuild: bool,
                 show_progress: bool | None = None) -> str:
    """Read a table into ``table`` from the cache, else from its shipped copy: CACHED, UNPACKED, or why
    it has to be built. Unpacking takes about half a second a table: on a terminal, a line says so."""
    if rebuild:
        return "rebuilt (asked to)"
    key, path = table_key(n, tiles), table_path(n, tiles)
    why = "built"
    try:
        if read_table_into(path, key, table.data):
            problem = check_table(n, tiles, table)
            if problem is None:
                return CACHED
            why = f"rebuilt ({problem})"
    except CorruptTableError as exc:
        why = f"rebuilt ({exc.reason})"
    shipped = shipped_path(SHIPPED_TABLES, key)
    if shipped.is_file() and (sys.stderr.isatty() if show_progress is None else show_progress):
        print(f"Unpacking the {n}x{n} pattern table {'-'.join(map(str, tiles))} into {path.parent}", file=sys.stderr)
    try:
        if not unpack_shipped(shipped, key, table.data, path):
            return why
    except CorruptTableError as exc:
        return f"{why}; the shipped copy is damaged: {exc}"
    problem = check_table(n, tiles, table)
    return UNPACKED if problem is None else f"{why}; the shipped copy: {problem}"


def _build_into(n: int, tiles: tuple[int, ...], table: np.ndarray, status: str, began: float,
                progress: Progress | None) -> TableInfo:
    from solver.search import native

    if len(tiles) == 1:  # one tile alone always needs exactly its Manhattan distance: no search, no numba
        table[:] = 0
        problem = check_table(n, tiles, table)
        if progress:
            progress(placements(n, 1))
    elif native.can_build(n, tiles):  # the C builder: the same bytes in a fifth of the memory
        native.build_dense(tiles, table, progress)
        problem = check_table(n, tiles, table)
    elif is_quad(tiles):
        raise TableUnavailableError(
            f"the {n}x{n} pattern table of tiles {'-'.join(map(str, tiles))} must be built "
            f"({'no copy in the cache or the package' if status == 'built' else status}), and only the C "
            f"builder can build it: install a C compiler ($CC, cc, gcc or clang), or reinstall the package to "
            f"restore its shipped copy ({native.unavailable_reason() or 'no C builder'})")
    else:
        from solver.search.pdb.build import build_table, check_sparse, pack_table  # numba

        dist = build_table(n, tiles, progress)
        problem = check_sparse(n, tiles, dist)
        if problem is None:
            table[:] = pack_table(n, tiles, dist)
        del dist
    if problem is not None:
        raise AssertionError(f"the pattern table builder produced a bad table: {problem}")
    path = table_path(n, tiles)
    try:
        write_table(path, table_key(n, tiles), table.tobytes())
    except (OSError, OutputError) as exc:  # a read-only cache costs a rebuild next time, not this solve
        status += f", not cached: {exc}"
    return TableInfo(tiles, path, status, time.perf_counter() - began, table)


def concatenate_tables(tables: dict[tuple[int, ...], np.ndarray]) -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    """Tables (by pattern) as one array and where each starts, for :func:`heuristic_from_tables`."""
    starts, start = {}, 0
    for tiles, table in tables.items():
        starts[tiles], start = start, start + table.shape[0]
    return np.concatenate(list(tables.values())), starts


def heuristic_from_tables(n: int, partitions: Sequence[Sequence[Sequence[int]]], flat: np.ndarray,
                          starts: dict[tuple[int, ...], int], with_linear_conflict: bool = False,
                          reflect: bool = True, flipped: bool = False) -> Heuristic:
    """Lay tables out for the search kernel (see :class:`solver.search.kernel.Heuristic`).

    ``flat`` holds every pattern's table, pattern ``tiles`` starting at byte ``starts[tiles]``.
    The heuristic is the max over the sets: each partition's views
    (:func:`solver.search.pdb.views.views_for`: the plain one, the flipped ones if ``flipped``,
    each reflected too if ``reflect``), every view's patterns in slots of their own that read
    the partition's tables. Raises ``ValueError`` for a partition that does not cover tiles
    1..N²-1 once, a pattern too large for a dense table, or a view that is not admissible.
    """
    nn = n * n
    set_slots: list[np.ndarray] = []
    set_weights: list[np.ndarray] = []
    frames: list[np.ndarray] = []
    offsets: list[int] = []
    dense: list[int] = []
    members: list[list[int]] = []  # per slot: its dense size (0: sparse) and the tiles playing its pattern's tiles
    reads_flipped = False  # whether any partition has flipped views to read (the name says so)
    for partition in partitions:
        if sorted(t for tiles in partition for t in tiles) != list(range(1, nn)):
            raise ValueError(f"the partition {partition} must cover tiles 1..{nn - 1} once each")
        for tiles in partition:
            if is_dense(tiles) and (nn > 64 or len(tiles) > MAX_PATTERN):
                raise ValueError(f"pattern {tiles} is too large for a dense table on {n}x{n}")
        views = views_for(n, partition, reflect, flipped)
        reads_flipped |= len(views) > (2 if reflect else 1)
        for view in views:
            slot_of, weight = np.zeros(nn, dtype=np.int64), np.zeros(nn, dtype=np.int64)
            for tiles, frame, playing in zip(partition, view, view_tiles(n, partition, view)):
                for i, t in enumerate(playing):
                    slot_of[t], weight[t] = len(offsets), nn ** i
                offsets.append(starts[tuple(tiles)])
                dense.append(len(tiles) if is_dense(tiles) else 0)
                members.append(playing)
                frames.append(frame_cells(n, frame))
            set_slots.append(slot_of)
            set_weights.append(weight)
    name = "pdb " + " | ".join("-".join(str(len(t)) for t in partition) for partition in partitions)
    name += (" +reflected" if reflect else "") + (" +flipped" if reads_flipped else "")
    name += " +linear-conflict" if with_linear_conflict else ""
    member_array = np.zeros(len(members) * MAX_PATTERN, dtype=np.int64)
    for sl, tiles in enumerate(members):
        if dense[sl]:
            member_array[sl * MAX_PATTERN:sl * MAX_PATTERN + len(tiles)] = tiles
    return Heuristic(name, PDB_LC if with_linear_conflict else PDB, flat, np.array(offsets, dtype=np.int64),
                     len(set_slots), np.concatenate(set_slots), np.concatenate(set_weights),
                     np.concatenate(frames), np.array(dense, dtype=np.int64), member_array)


def tables_present(n: int) -> bool:
    """Whether every table for N×N is loaded or on disk (not verified: loading does that)."""
    if n in _TABLES:
        return True
    return n in PARTITIONS and all((cache_dir() / f"{table_key(n, tiles)}.bin").exists() for tiles in patterns(n))


_TABLES: dict[int, tuple[np.ndarray, dict[tuple[int, ...], int]]] = {}
_LOADED: dict[tuple, Heuristic] = {}


def pdb_tables(n: int, show_progress: bool | None = None) -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    """Every N×N table, read (or built) once per process straight into one array."""
    if n not in PARTITIONS:
        raise ValueError(f"no pattern databases for {n}x{n}; sizes with them: {', '.join(map(str, PARTITIONS))}")
    if n not in _TABLES:
        needed = patterns(n)
        sizes = [table_bytes(n, tiles) for tiles in needed]
        flat = np.empty(sum(sizes), dtype=np.uint8)
        starts, start, outs = {}, 0, []
        for tiles, size in zip(needed, sizes):
            outs.append(flat[start:start + size])
            starts[tiles], start = start, start + size
        load_tables(n, needed, show_progress, outs=outs)
        _TABLES[n] = flat, starts
    return _TABLES[n]


def pdb_heuristic(n: int, show_progress: bool | None = None, with_linear_conflict: bool = False,
                  reflect: bool = True, flipped: bool = True) -> Heuristic:
    """The pattern-database heuristic for N×N (tables loaded or built on first use).

    ``reflect`` and ``flipped`` choose the views (see :func:`heuristic_from_tables`); the solver
    reads them all.
    """
    key = (n, with_linear_conflict, reflect, flipped)
    if key not in _LOADED:
        flat, starts = pdb_tables(n, show_progress)
        _LOADED[key] = heuristic_from_tables(n, PARTITIONS[n], flat, starts, with_linear_conflict, reflect, flipped)
    return _LOADED[key]
