"""Additive disjoint pattern databases (Korf & Felner): building, caching and loading them.

A pattern is a set of tiles. Its table gives, for every placement of those tiles, the
fewest moves *of pattern tiles* needed to bring them home, found by a breadth-first search
from the goal that tracks the blank: the blank may wander through the cells the pattern does
not occupy for free (a flood fill of its region), and moving a pattern tile into it costs
one. Since each move moves one tile, the tables of disjoint patterns add up to an admissible
and consistent heuristic. (Tables that let the blank jump anywhere are far weaker.)

An entry holds half the moves the pattern needs beyond its tiles' Manhattan distance (that
excess is always even), so the heuristic is ``Manhattan + 2 * sum(entries)``. Two layouts:

- sparse, for patterns of up to 6 tiles: index ``sum(cell of pattern tile i * (N²)**i)``,
  which the search updates with one multiply-add when a tile moves; 4 bits per entry;
- dense, for 7 tiles and more (a sparse 7-tile 4×4 table would take 134 MB): the rank of the
  placement among all ``N²!/(N²-k)!`` of them, ``rank = rank * (N² - i) + (cell_i - number of
  earlier pattern tiles on lower cells)``, three entries per byte in base 6 (19 MB for 7 tiles).
  Entries above 5 (a few thousand of 57 million in the 4×4 7-tile tables) are stored as 5,
  which keeps the heuristic admissible and consistent.

Tables are built on first use (with a progress bar when stderr is a terminal) and cached
in :func:`solver.tablecache.cache_dir` (``$NPUZZLE_CACHE_DIR`` to override); damaged files
are detected by size and checksum and rebuilt.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from solver.board import Board
from solver.errors import OutputError
from solver.idastar import MAX_PATTERN, PDB, PDB_LC, Heuristic, dense_extra, rank_step
from solver.tablecache import CorruptTableError, cache_dir, read_table_into, write_table

PARTITIONS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {
    # 4×4: 7-7-1 (the top seven tiles, the bottom seven, tile 8 alone) and its reflection, 38 MB.
    # Measured by bench/pdb_partitions.py on Korf's 100: 5.5 M nodes in all, against 18 M for
    # the max over two 6-6-3 partitions and their reflections (32 MB), and 38 M for a 7-6-2.
    4: (((1, 2, 3, 4, 5, 6, 7), (9, 10, 11, 12, 13, 14, 15), (8,)),),
    # 5×5: four 5-tile blocks and a 4-tile one, 20 MB (6-tile 5×5 tables would need 122 MB each).
    5: (((1, 2, 3, 6, 7), (4, 5, 8, 9, 10), (11, 12, 16, 17, 21), (13, 14, 15, 18, 19), (20, 22, 23, 24)),),
}
"""The partitions used for each board size that has pattern databases; the heuristic is the
max over them and their reflections."""


def patterns(n: int) -> list[tuple[int, ...]]:
    """Every pattern whose table the N×N heuristic needs, each once."""
    return list(dict.fromkeys(tiles for partition in PARTITIONS[n] for tiles in partition))


UNSET = 255
_VERSION = 2
DENSE_FROM = 7
"""Patterns with at least this many tiles are stored in the dense layout."""
DENSE_CAP = 5
"""The largest entry the dense layout holds (base 6)."""
Progress = Callable[[int], None]


def is_dense(tiles: Sequence[int]) -> bool:
    return len(tiles) >= DENSE_FROM


def table_key(n: int, tiles: Sequence[int]) -> str:
    layout = "dense6-v1" if is_dense(tiles) else f"v{_VERSION}"
    return f"pdb-{n}x{n}-{'.'.join(map(str, tiles))}-{layout}"


def placements(n: int, k: int) -> int:
    """Number of ways to place ``k`` distinct tiles on N² cells: the filled entries of a table."""
    return math.perm(n * n, k)


def dense_rank(n: int, cells: Sequence[int]) -> int:
    """The dense index of a placement (``cells[i]``: pattern tile i's cell), as the module says."""
    rank, used = 0, 0
    for i, cell in enumerate(cells):
        rank, used = rank_step(rank, used, i, cell, n * n)
    return int(rank)


# --------------------------------------------------------------------------- the builder
@njit(cache=True, inline="always")
def _flood(reg, free, n, not_first_col, not_last_col):
    """The cells the blank can reach from ``reg`` through ``free`` (bit masks)."""
    while True:
        grow = (reg | ((reg << 1) & not_first_col) | ((reg >> 1) & not_last_col) | (reg << n) | (reg >> n)) & free
        if grow == reg:
            return reg
        reg = grow


@njit(cache=True, inline="always")
def _lowest(mask):
    c = 0
    while not (mask >> c) & 1:
        c += 1
    return c


@njit(cache=True, nogil=True)
def _expand(n, k, weights, queue, head, stop, tail, dist, visited, depth):
    """Expand queued states ``queue[head:stop]`` (all at ``depth``); return (head, tail, entries filled).

    A state is ``index * N² + c``: the pattern's placement and the lowest cell of the blank's
    region. Stops early when the queue might overflow, so the caller can grow it.
    """
    nn = n * n
    full = (1 << nn) - 1
    not_first_col = 0
    not_last_col = 0
    for c in range(nn):
        if c % n != 0:
            not_first_col |= 1 << c
        if c % n != n - 1:
            not_last_col |= 1 << c
    pos = np.zeros(k, dtype=np.int64)
    shift = 4 if nn == 16 else 0
    filled = 0
    capacity = queue.shape[0]
    while head < stop and tail + 4 * k <= capacity:
        state = queue[head]
        head += 1
        if shift:  # 4x4: digits by shifts, not divisions
            index = state >> shift
            blank = state & (nn - 1)
            for i in range(k):
                pos[i] = (index >> (shift * i)) & (nn - 1)
        else:
            index = state // nn
            blank = state % nn
            for i in range(k):
                pos[i] = (index // weights[i]) % nn
        occupied = 0
        for i in range(k):
            occupied |= 1 << pos[i]
        region = _flood(1 << blank, full & ~occupied, n, not_first_col, not_last_col)
        for i in range(k):
            p = pos[i]
            r = p // n
            c = p % n
            for j in range(4):
                if j == 0:
                    if r == 0:
                        continue
                    q = p - n
                elif j == 1:
                    if r == n - 1:
                        continue
                    q = p + n
                elif j == 2:
                    if c == 0:
                        continue
                    q = p - 1
                else:
                    if c == n - 1:
                        continue
                    q = p + 1
                if not (region >> q) & 1:
                    continue
                # pattern tile i slides from p into the blank's region at q; the blank is now on p
                child = index + (q - p) * weights[i]
                occ = (occupied & ~(1 << p)) | (1 << q)
                reg = _flood(1 << p, full & ~occ, n, not_first_col, not_last_col)
                key = child * nn + _lowest(reg)
                if visited[key >> 3] & (1 << (key & 7)):
                    continue
                visited[key >> 3] |= 1 << (key & 7)
                if dist[child] == 255:
                    dist[child] = depth + 1
                    filled += 1
                queue[tail] = key
                tail += 1
    return head, tail, filled


def build_table(n: int, tiles: Sequence[int], progress: Progress | None = None) -> np.ndarray:
    """The pattern database of ``tiles`` on an N×N board (uint8, indexed as the module says)."""
    nn, k = n * n, len(tiles)
    weights = np.array([nn ** i for i in range(k)], dtype=np.int64)
    dist = np.full(nn ** k, UNSET, dtype=np.uint8)
    visited = np.zeros((nn ** (k + 1) + 7) // 8, dtype=np.uint8)
    goal_index = sum((t - 1) * int(w) for t, w in zip(tiles, weights))
    occupied = sum(1 << (t - 1) for t in tiles)
    region = _region_py(n, nn - 1, occupied)
    start = goal_index * nn + min(c for c in range(nn) if region >> c & 1)
    visited[start >> 3] |= 1 << (start & 7)
    dist[goal_index] = 0
    queue = np.zeros(1 << 20, dtype=np.int64)
    queue[0] = start
    head, tail, depth = 0, 1, 0
    if progress:
        progress(1)
    while head < tail:
        # a layer in index order: then a tile's moves read and write the tables in a few
        # sweeps instead of at random, which is most of the cost of a 7-tile build
        queue[head:tail].sort()
        stop = tail
        while head < stop:
            if tail + 4 * k > queue.shape[0] - 1:
                # drop the finished part, then grow if still too full
                live = tail - head
                queue[:live] = queue[head:tail]
                stop, tail, head = stop - head, live, 0
                if tail + 4 * k * 1024 > queue.shape[0]:
                    queue = np.concatenate([queue, np.zeros(queue.shape[0], dtype=np.int64)])
            head, tail, filled = _expand(n, k, weights, queue, head, stop, tail, dist, visited, depth)
            if progress and filled:
                progress(int(filled))
        depth += 1
    return dist


def _region_py(n: int, start: int, occupied: int) -> int:
    region, frontier = 1 << start, [start]
    while frontier:
        cell = frontier.pop()
        r, c = divmod(cell, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            q = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and not (occupied >> q) & 1 and not (region >> q) & 1:
                region |= 1 << q
                frontier.append(q)
    return region


@njit(cache=True, nogil=True)
def _pack(n, tiles, dist, packed, dense):
    """The stored table (4-bit sparse, or base-6 dense and capped) from a distance table.

    Returns the largest excess (before any cap), or -1 if an entry does not fit.
    """
    nn = n * n
    k = tiles.shape[0]
    worst = 0
    for index in range(dist.shape[0]):
        value = dist[index]
        if value == 255:
            continue
        rest = index
        manhattan = 0
        rank = 0
        used = 0
        for s in range(k):
            cell = rest % nn
            rest //= nn
            goal = tiles[s] - 1
            manhattan += abs(cell // n - goal // n) + abs(cell % n - goal % n)
            if dense:
                rank, used = rank_step(rank, used, s, cell, nn)
        excess = (value - manhattan) // 2
        if excess < 0 or (value - manhattan) % 2 or (excess > 15 and not dense):
            return -1
        if excess > worst:
            worst = excess
        if dense:
            digit = rank % 3
            packed[rank // 3] += min(excess, DENSE_CAP) * (1 if digit == 0 else (6 if digit == 1 else 36))
        else:
            packed[index >> 1] |= excess << ((index & 1) << 2)
    return worst


def pack_table(n: int, tiles: Sequence[int], dist: np.ndarray) -> np.ndarray:
    """The stored form of a table built by :func:`build_table` (see the module docstring)."""
    packed = np.zeros(table_bytes(n, tiles), dtype=np.uint8)
    if _pack(n, np.array(tiles, dtype=np.int64), dist, packed, is_dense(tiles)) < 0:
        raise ValueError(f"pattern {tiles} on {n}x{n} has an entry that does not fit its layout")
    return packed


def max_excess(tiles: Sequence[int], table: np.ndarray) -> int:
    """The most moves any placement needs beyond its tiles' Manhattan distance, as stored."""
    if is_dense(tiles):
        return 2 * int(max(np.max(table % 6), np.max(table // 6 % 6), np.max(table // 36)))
    return 2 * int(max(np.max(table & 15), np.max(table >> 4)))


def pattern_value(n: int, tiles: Sequence[int], table: np.ndarray, board_tiles: Sequence[int]) -> int:
    """The moves pattern ``tiles`` needs on a board, from its stored table (slow path, for checks)."""
    nn = n * n
    cells = [board_tiles.index(t) for t in tiles]
    if is_dense(tiles):
        excess = int(dense_extra(table, 0, dense_rank(n, cells)))
    else:
        index = sum(cell * nn ** i for i, cell in enumerate(cells))
        excess = (int(table[index >> 1]) >> ((index & 1) * 4)) & 15
    manhattan = sum(abs(c // n - (t - 1) // n) + abs(c % n - (t - 1) % n) for c, t in zip(cells, tiles))
    return manhattan + 2 * excess


def splits_free_cells(n: int, tiles: Sequence[int], board_tiles: Sequence[int]) -> bool:
    """Whether the cells not holding ``tiles`` fall into more than one region for the blank."""
    occupied = sum(1 << board_tiles.index(t) for t in tiles)
    free = [c for c in range(n * n) if not occupied >> c & 1]
    return _region_py(n, free[0], occupied) != sum(1 << c for c in free)


def check_sparse(n: int, tiles: Sequence[int], dist: np.ndarray) -> str | None:
    """Check a freshly built table: every placement reached, the goal at 0. ``None`` if sound."""
    filled = int(np.count_nonzero(dist != UNSET))
    if filled != placements(n, len(tiles)):
        return f"{filled:,} placements filled, expected {placements(n, len(tiles)):,}"
    if dist[sum((t - 1) * (n * n) ** i for i, t in enumerate(tiles))] != 0:
        return "the goal placement is not at distance 0"
    return None


def check_table(n: int, tiles: Sequence[int], table: np.ndarray) -> str | None:
    """Check a stored table's shape and goal entry: ``None`` if sound, else what is wrong."""
    expected = table_bytes(n, tiles)
    if table.shape != (expected,):
        return f"{table.shape[0]:,} bytes, expected {expected:,}"
    if pattern_value(n, tiles, table, Board.goal(n).tiles) != 0:
        return "the goal placement is not at distance 0"
    return None


# --------------------------------------------------------------------------- cache and loading
@dataclass(frozen=True)
class TableInfo:
    """How one table was obtained: for ``python -m solver tables``."""

    tiles: tuple[int, ...]
    path: Path
    status: str  # "cached", "built" or "rebuilt (<reason>)"
    seconds: float
    table: np.ndarray


def _terminal_progress(label: str, total: int) -> tuple[Progress, Callable[[], None]]:
    import click

    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    bar.__enter__()
    return bar.update, lambda: bar.__exit__(None, None, None)


def table_bytes(n: int, tiles: Sequence[int]) -> int:
    """Size of a stored table: two 4-bit entries per byte over the sparse index, or three per byte dense."""
    if is_dense(tiles):
        return (placements(n, len(tiles)) + 2) // 3
    return ((n * n) ** len(tiles) + 1) // 2


def load_table(n: int, tiles: Sequence[int], show_progress: bool | None = None, rebuild: bool = False,
               out: np.ndarray | None = None) -> TableInfo:
    """One pattern database from the cache, built (and cached) if missing or damaged.

    With ``out`` (a uint8 array of :func:`table_bytes`), the table is read straight into it.
    """
    return load_tables(n, [tiles], show_progress, rebuild, None if out is None else [out])[0]


def load_tables(n: int, patterns_: Sequence[Sequence[int]], show_progress: bool | None = None,
                rebuild: bool = False, outs: Sequence[np.ndarray] | None = None) -> list[TableInfo]:
    """Pattern databases from the cache; those missing or damaged are built at once, one per thread.

    The builder releases the GIL, so two 7-tile 4×4 tables take about as long as one.
    """
    from concurrent.futures import ThreadPoolExecutor

    from solver.parallel import threads_available

    wanted = [tuple(tiles) for tiles in patterns_]
    tables = list(outs) if outs is not None else [np.empty(table_bytes(n, t), dtype=np.uint8) for t in wanted]
    infos: list[TableInfo | None] = [None] * len(wanted)
    to_build: list[tuple[int, str, float]] = []
    for i, tiles in enumerate(wanted):
        began = time.perf_counter()
        status = _read_cached(n, tiles, tables[i], rebuild)
        if status == "cached":
            infos[i] = TableInfo(tiles, _table_path(n, tiles), status, time.perf_counter() - began, tables[i])
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


def _table_path(n: int, tiles: tuple[int, ...]) -> Path:
    return cache_dir() / f"{table_key(n, tiles)}.bin"


def _read_cached(n: int, tiles: tuple[int, ...], table: np.ndarray, rebuild: bool) -> str:
    """Read a table from the cache into ``table``: "cached", or why it has to be built."""
    if rebuild:
        return "rebuilt (asked to)"
    try:
        found = read_table_into(_table_path(n, tiles), table_key(n, tiles), memoryview(table))
    except CorruptTableError as exc:
        return f"rebuilt ({exc.reason})"
    if not found:
        return "built"
    problem = check_table(n, tiles, table)
    return "cached" if problem is None else f"rebuilt ({problem})"


def _build_into(n: int, tiles: tuple[int, ...], table: np.ndarray, status: str, began: float,
                progress: Progress | None) -> TableInfo:
    dist = build_table(n, tiles, progress)
    problem = check_sparse(n, tiles, dist)
    if problem is not None:
        raise AssertionError(f"the pattern table builder produced a bad table: {problem}")
    table[:] = pack_table(n, tiles, dist)
    del dist
    path = _table_path(n, tiles)
    try:
        write_table(path, table_key(n, tiles), table.tobytes())
    except (OSError, OutputError) as exc:  # a read-only cache costs a rebuild next time, not this solve
        status += f", not cached: {exc}"
    return TableInfo(tiles, path, status, time.perf_counter() - began, table)


def mirror_cells(n: int) -> np.ndarray:
    """``mirror[pos]``: the cell's image under the main-diagonal reflection (which fixes the goal's blank)."""
    return np.array([(p % n) * n + p // n for p in range(n * n)], dtype=np.int64)


def mirror_tile(n: int, tile: int) -> int:
    """The tile whose goal cell is the mirror image of ``tile``'s goal cell (an involution)."""
    r, c = divmod(tile - 1, n)
    return c * n + r + 1


def concatenate_tables(tables: dict[tuple[int, ...], np.ndarray]) -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    """Tables (by pattern) as one array and where each starts, for :func:`heuristic_from_tables`."""
    starts, start = {}, 0
    for tiles, table in tables.items():
        starts[tiles], start = start, start + table.shape[0]
    return np.concatenate(list(tables.values())), starts


def heuristic_from_tables(n: int, partitions: Sequence[Sequence[Sequence[int]]], flat: np.ndarray,
                          starts: dict[tuple[int, ...], int], with_linear_conflict: bool = False,
                          reflect: bool = True) -> Heuristic:
    """Lay tables out for the search kernel (see :class:`solver.idastar.Heuristic`).

    ``flat`` holds every pattern's table, pattern ``tiles`` starting at byte ``starts[tiles]``.
    The heuristic is the max over the partitions' sums (and their reflections if ``reflect``).
    """
    nn = n * n
    set_slots, set_weights, set_cells, offsets = [], [], [], []
    dense, members = [], []  # per slot: its dense size (0: sparse) and the tiles playing its pattern's tiles
    identity, mirror = np.arange(nn, dtype=np.int64), mirror_cells(n)
    for partition in partitions:
        if sorted(t for tiles in partition for t in tiles) != list(range(1, nn)):
            raise ValueError(f"the partition {partition} must cover tiles 1..{nn - 1} once each")
        base = len(offsets)
        pattern, weight = np.zeros(nn, dtype=np.int64), np.zeros(nn, dtype=np.int64)
        for p, tiles in enumerate(partition):
            offsets.append(starts[tuple(tiles)])
            dense.append(len(tiles) if is_dense(tiles) else 0)
            members.append(list(tiles))
            if is_dense(tiles) and (nn > 64 or len(tiles) > MAX_PATTERN):
                raise ValueError(f"pattern {tiles} is too large for a dense table on {n}x{n}")
            for i, t in enumerate(tiles):
                pattern[t], weight[t] = base + p, nn ** i
        set_slots.append(pattern)
        set_weights.append(weight)
        set_cells.append(identity)
        if reflect:
            # in the reflected board, tile t sits on mirror[cell] and plays the part of mirror_tile(t);
            # its slots are new (their own indices) but read the same tables
            image = [0] + [mirror_tile(n, t) for t in range(1, nn)]
            shift = len(offsets) - base
            offsets.extend(offsets[base:])
            dense.extend(dense[base:])
            members.extend([[image[t] for t in tiles] for tiles in members[base:]])
            set_slots.append(pattern[image] + shift)
            set_weights.append(weight[image])
            set_cells.append(mirror)
    name = "pdb " + " | ".join("-".join(str(len(t)) for t in partition) for partition in partitions)
    name += (" +reflected" if reflect else "") + (" +linear-conflict" if with_linear_conflict else "")
    member_array = np.zeros(len(members) * MAX_PATTERN, dtype=np.int64)
    for sl, tiles in enumerate(members):
        if dense[sl]:
            member_array[sl * MAX_PATTERN:sl * MAX_PATTERN + len(tiles)] = tiles
    return Heuristic(name, PDB_LC if with_linear_conflict else PDB, flat, np.array(offsets, dtype=np.int64),
                     len(set_slots), np.concatenate(set_slots), np.concatenate(set_weights),
                     np.concatenate(set_cells), np.array(dense, dtype=np.int64), member_array)


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
                  reflect: bool = True) -> Heuristic:
    """The pattern-database heuristic for N×N (tables loaded or built on first use)."""
    key = (n, with_linear_conflict, reflect)
    if key not in _LOADED:
        flat, starts = pdb_tables(n, show_progress)
        _LOADED[key] = heuristic_from_tables(n, PARTITIONS[n], flat, starts, with_linear_conflict, reflect)
    return _LOADED[key]
