"""``python -m solver tables``: build, verify and report the solver's lookup tables."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from solver.board import Board

if TYPE_CHECKING:  # numpy is the [fast] extra's: imported where a table is built
    import numpy as np


def _spot_check(n: int, partition: Sequence[tuple[int, ...]], tables: Sequence[np.ndarray], samples: int,
                seed: int = 0) -> str | None:
    """Random walks from the goal, checking the sum of the tables along the way.

    Admissible: 0 at the goal and never above the walk's length (walking back solves it).
    Consistent where the tables promise it: a move changes the sum by at most one when no
    pattern's tiles cut the free cells in two (a table stores the minimum over the blank's
    possible regions, which IDA* tolerates).
    """
    from solver.search.pdb.build import splits_free_cells
    from solver.search.pdb.layout import pattern_value

    rng = random.Random(seed)

    def evaluate(tiles: tuple[int, ...]) -> tuple[int, bool]:
        total, split = 0, False
        for tiles_of, table in zip(partition, tables):
            value, cut = pattern_value(n, tiles_of, table, tiles), splits_free_cells(n, tiles_of, tiles)
            total, split = total + value, split or cut
        return total, split

    for _ in range(samples):
        board = Board.goal(n)
        value, split = evaluate(board.tiles)
        if value != 0:
            return f"the goal has heuristic {value}, not 0"
        for step in range(1, rng.randint(1, 150) + 1):
            board = rng.choice(board.neighbors())
            after, split_after = evaluate(board.tiles)
            if after > step:
                return f"heuristic {after} exceeds the {step} moves of a known path to {board.tiles}"
            if abs(after - value) > 1 and not (split or split_after):
                return f"inconsistent values {value} -> {after} at {board.tiles}"
            value, split = after, split_after
    return None


def _against_shipped(n: int, tiles: tuple[int, ...], table: np.ndarray, write: bool) -> str | None:
    """Compare a table with its shipped copy (or, with ``write``, make it the shipped copy): what is wrong,
    or ``None``. The 4×4 tables of several tiles ship; one tile alone takes no search to build."""
    import numpy as np

    from solver.search.pdb.database import SHIPPED_TABLES, table_path
    from solver.search.pdb.layout import table_key
    from solver.search.tablecache import CorruptTableError, pack_for_shipping, shipped_path, unpack_shipped

    key = table_key(n, tiles)
    shipped = shipped_path(SHIPPED_TABLES, key)
    ships = n == 4 and len(tiles) > 1
    if write and ships:
        pack_for_shipping(table_path(n, tiles), shipped)
    copy = np.empty_like(table)
    try:
        if not unpack_shipped(shipped, key, copy.data, None):
            return f"no shipped copy ({shipped})" if ships else None
    except CorruptTableError as exc:
        return f"shipped copy damaged: {exc}"
    return None if np.array_equal(copy, table) else f"differs from the shipped copy {shipped}"


def _report_pdb(n: int, rebuild: bool, samples: int, shipped: str | None = None) -> list[list[object]]:
    from solver.search.pdb.database import load_tables
    from solver.search.pdb.layout import PARTITIONS, check_table, max_excess, patterns, placements

    rows, tables = [], {}
    for info in load_tables(n, patterns(n), show_progress=None, rebuild=rebuild):
        tiles, table = info.tiles, info.table
        tables[tiles] = table
        problem = check_table(n, tiles, table)
        if problem is None and shipped is not None:
            problem = _against_shipped(n, tiles, table, shipped == "write")
        excess = max_excess(tiles, table)
        rows.append([f"{n}x{n} pdb {'-'.join(map(str, tiles))}", info.path, f"{placements(n, len(tiles)):,}",
                     f"{table.nbytes / 2**20:.1f} MB", f"+{excess}", info.status, f"{info.seconds:.1f}",
                     problem or "ok"])
    for number, partition in enumerate(PARTITIONS[n], start=1):
        problem = _spot_check(n, partition, [tables[tiles] for tiles in partition], samples)
        rows.append([f"{n}x{n} pdb sum #{number}", f"{samples} random walks", "", "", "", "", "", problem or "ok"])
    return rows


def _report_exact(n: int) -> list[list[object]]:
    from solver.search.exact import SHIPPED, build_table, exact_table

    began = time.perf_counter()
    table = exact_table.__wrapped__(n)
    seconds = time.perf_counter() - began
    reachable = [b & 31 for b in table if b != 255]
    problem = None
    if len(reachable) * 2 != len(table):
        problem = f"{len(reachable):,} reachable boards, expected half of {len(table):,}"
    elif n == 2 and table != build_table(2):
        problem = "differs from a fresh build"
    where = SHIPPED if n == 3 else "(in memory)"
    return [[f"{n}x{n} exact", where, f"{len(reachable):,}", f"{len(table) / 2**10:.0f} KB", max(reachable),
             "shipped" if n == 3 else "built", f"{seconds:.2f}", problem or "ok"]]


@click.command("tables")
@click.option("--size", "sizes", type=click.Choice(["2", "3", "4", "5"]), multiple=True,
              help="Board sizes to check (repeatable). Default: 2, 3 and 4; 5×5 tables (20 MB, ~25 s) on request.")
@click.option("--rebuild", is_flag=True, help="Rebuild the pattern databases even if the cache is sound.")
@click.option("--samples", type=click.IntRange(min=0), default=200, show_default=True,
              help="Random walks for the consistency spot check of each pattern-database sum.")
@click.option("--check-shipped", "shipped", flag_value="check",
              help="Compare each table with the copy shipped in the package (CI: with --rebuild).")
@click.option("--write-shipped", "shipped", flag_value="write",
              help="Maintainers: make the 4x4 tables (verified) the package's shipped copies.")
def tables(sizes: tuple[str, ...], rebuild: bool, samples: int, shipped: str | None) -> int:
    """Build (if missing or damaged), verify and report the lookup tables.

    Pattern databases live in $NPUZZLE_CACHE_DIR, else the user cache dir. A missing 4x4
    table is unpacked from the copy shipped in the package (about a second), any other is
    built. A truncated or damaged file is detected by its size and checksum and replaced;
    --rebuild builds every table from source.
    """
    from tabulate import tabulate

    from solver.fileio import cache_dir

    chosen = sorted({int(s) for s in sizes} or {2, 3, 4})
    warm = native = None
    if any(n >= 4 for n in chosen):  # first: the native library also builds the 4x4 tables
        from solver.search.native import warm_up

        native = warm_up()
    if any(n >= 4 for n in chosen):  # first, so that it includes importing numba
        began = time.perf_counter()
        from solver.search.idastar import idastar

        idastar(Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]))
        warm = time.perf_counter() - began
    rows: list[list[object]] = []
    for n in chosen:
        rows += _report_exact(n) if n <= 3 else _report_pdb(n, rebuild, samples, shipped)
    click.echo(tabulate(rows, headers=["table", "file", "placements", "size", "max", "status", "seconds",
                                       "check"]))
    click.echo("max: the longest exact distance (exact tables), or the most moves a pattern needs beyond its "
               "tiles' Manhattan distance, as stored (pattern databases; dense tables store at most +10 for 7 tiles "
               "and +6 for 8, which keeps them admissible)")
    click.echo(f"cache folder: {cache_dir()}")
    if native is not None:
        click.echo(f"4x4 pattern-database kernel and builder: {native[0]}, ready in {native[1]:.2f} s "
                   "(compiled once, then loaded from the cache folder)")
    if warm is not None:
        click.echo(f"numba kernel (other sizes and heuristics) ready in {warm:.2f} s (numba import plus compile, "
                   "or load from its cache)")
    bad = [row[0] for row in rows if row[-1] != "ok"]
    if bad:
        click.echo(f"tables failing their checks: {', '.join(map(str, bad))}", err=True)
        return 1
    return 0
