"""Shared plumbing for the benchmark scripts: finding ../shared, reading instances, timing, reporting.

Benchmarks print figures; they are not tests. Each script prints one line per instance
(length, nodes, seconds), then totals and the process's peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from solver.board import Board  # noqa: E402
from solver.errors import SearchLimitError  # noqa: E402
from solver.search.astar import astar  # noqa: E402
from solver.search.result import SearchResult  # noqa: E402

DEFAULT_SHARED = REPO.parent / "shared"


@dataclass(frozen=True)
class Instance:
    name: str
    board: Board
    optimal: int | None  # None: unsolvable


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                   help=f"the shared data folder (default: {DEFAULT_SHARED})")
    p.add_argument("--astar", action="store_true",
                   help="side by side: also run plain A* with Manhattan (solver.search.astar.astar) on each instance")
    p.add_argument("--astar-node-limit", type=int, default=2_000_000,
                   help="A* gives up past this many expanded nodes (default: 2,000,000)")
    p.add_argument("--jobs", type=int, default=1,
                   help="solve this many instances at a time, one thread each (default 1: one at a time, each "
                        "search sharing its large iterations among the CPUs)")
    return p


def read_lines(path: Path, limit: int | None = None) -> list[Instance]:
    """``<length> <tiles…>`` lines (``#`` comments), as in ../shared/bench."""
    out = []
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        length, *tiles = map(int, line.split())
        out.append(Instance(f"{path.name}:{number}", Board.from_tiles(tiles), length))
    return out[:limit]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def warm_up(sizes: Iterable[int]) -> list[str]:
    """Load tables and compiled code before timing: their one-off costs are reported apart."""
    from solver.solve import auto_algorithm, solve

    notes = []
    for n in sorted(set(sizes)):
        began = time.perf_counter()
        tiles = list(range(1, n * n)) + [0]
        tiles[-1], tiles[-2] = tiles[-2], tiles[-1]  # one move from the goal
        solve(Board.from_tiles(tiles))
        notes.append(f"warm-up {n}x{n} ({auto_algorithm(n)}: tables + compiled code): "
                     f"{time.perf_counter() - began:.2f} s")
    return notes


def run(instances: list[Instance], solve: Callable[[Board], SearchResult], side_by_side: bool,
        astar_limit: int, title: str, notes: Iterable[str] = (), jobs: int = 1) -> int:
    """Solve every instance, print the table and the totals; return 1 if any answer is wrong.

    With ``jobs`` > 1, instances are solved that many at a time on threads (each search on one
    thread); the per-instance CPU column is then left out, as threads share the process's clock.
    """
    for note in notes:
        print(note)
    if jobs > 1:
        if side_by_side:
            raise SystemExit("--astar compares one instance at a time: leave out --jobs")
        return _run_concurrently(instances, solve, title, jobs)
    head = f"{'instance':<34} {'N':>2} {'len':>4} {'nodes':>13} {'seconds':>9} {'cpu s':>8}"
    if side_by_side:
        head += f" | {'A* nodes':>12} {'A* s':>8} {'ratio(s)':>9}"
    print(head)
    wrong = 0
    total_nodes = total_s = 0.0
    a_nodes = a_s = ours_s_where_astar = 0.0
    a_done = 0
    began, cpu = time.perf_counter(), time.process_time()
    for case in instances:
        cpu_before = time.process_time()
        result = solve(case.board)
        cpu_used = time.process_time() - cpu_before
        total_nodes += result.expanded
        total_s += result.seconds
        ok, line = _judge(case, result)
        wrong += not ok
        line += f" {cpu_used:>8.3f}" + _verdict(case, ok)
        if side_by_side:
            try:
                other = astar(case.board, "manhattan", astar_limit)
                a_nodes += other.expanded
                a_s += other.seconds
                ours_s_where_astar += result.seconds
                a_done += 1
                ratio = other.seconds / max(result.seconds, 1e-6)
                line += f" | {other.expanded:>12,} {other.seconds:>8.3f} {ratio:>9.1f}"
            except SearchLimitError:
                line += f" | {'> limit':>12} {'-':>8} {'-':>9}"
        print(line, flush=True)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    _print_tally(title, len(instances), wrong)
    print(f"total: {total_nodes:,.0f} nodes expanded, {total_s:.3f} s searching, {wall:.3f} s wall "
          f"(including path building), {cpu:.3f} s CPU")
    if side_by_side:
        print(f"A*/Manhattan finished {a_done} of {len(instances)} within {astar_limit:,} nodes: "
              f"{a_nodes:,.0f} nodes, {a_s:.3f} s vs ours {ours_s_where_astar:.3f} s on the same instances "
              f"(ratio {a_s / max(ours_s_where_astar, 1e-9):.1f}x)")
    print(f"peak memory (max RSS of this process): {peak_mb():.0f} MB")
    return 1 if wrong else 0


def _run_concurrently(instances: list[Instance], solve: Callable[[Board], SearchResult], title: str,
                      jobs: int) -> int:
    import os
    from concurrent.futures import ThreadPoolExecutor

    os.environ["NPUZZLE_THREADS"] = "1"  # one thread per search; the pool supplies the parallelism
    print(f"{'instance':<34} {'N':>2} {'len':>4} {'nodes':>13} {'seconds':>9}   ({jobs} at a time)")
    began, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda case: solve(case.board), instances))
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    wrong = 0
    for case, result in zip(instances, results):
        ok, line = _judge(case, result)
        wrong += not ok
        print(line + _verdict(case, ok))
    _print_tally(title, len(instances), wrong)
    print(f"total: {sum(r.expanded for r in results):,} nodes expanded, {wall:.3f} s wall with {jobs} at a time, "
          f"{cpu:.3f} s CPU")
    print(f"peak memory (max RSS of this process): {peak_mb():.0f} MB")
    return 1 if wrong else 0


def _judge(case: Instance, result: SearchResult) -> tuple[bool, str]:
    """Whether the answer is the known one, and the line's first columns (instance to seconds)."""
    ok = result.moves == (-1 if case.optimal is None else case.optimal)
    shown = "unsolv." if result.path is None else str(result.moves)
    return ok, f"{case.name:<34} {case.board.n:>2} {shown:>4} {result.expanded:>13,} {result.seconds:>9.4f}"


def _verdict(case: Instance, ok: bool) -> str:
    return "" if ok else f"  WRONG: expected {case.optimal}"


def _print_tally(title: str, count: int, wrong: int) -> None:
    print(f"\n{title}: {count} instances, {count - wrong} correct, {wrong} wrong")


T = TypeVar("T")


def interleaved(names: list[str], rounds: int, solve: Callable[[str], T]) -> dict[str, list[tuple[T, float, float]]]:
    """Run ``solve(name)`` for every name, ``rounds`` times, each round in the reverse order of the one
    before, so that a change of load on a shared machine hits all of them: per name, each run's
    (result, CPU seconds of this thread, wall seconds)."""
    runs: dict[str, list[tuple[T, float, float]]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            wall, cpu = time.perf_counter(), time.thread_time()
            result = solve(name)
            runs[name].append((result, time.thread_time() - cpu, time.perf_counter() - wall))
    return runs


def side_by_side(instances: list[Instance], solvers: dict[str, Callable[[Board], SearchResult]], rounds: int,
                 ratio_name: str) -> int:
    """Two ways of solving the same instances, interleaved: per instance the nodes and the median CPU
    seconds of each and the ratio of the second to the first, then the totals. Returns 1 if any
    answer is not the file's optimum.
    """
    names = list(solvers)
    assert len(names) == 2
    for solve in solvers.values():  # tables, compiled kernel
        solve(instances[0].board)
    print(f"{'instance':<22} {'len':>4} | " + " | ".join(f"{n:>15} {'nodes':>12} {'s':>7}" for n in names)
          + " | ratio s")
    totals = {n: [0, 0.0] for n in names}
    wrong = 0
    for case in instances:
        runs = interleaved(names, rounds, lambda name, board=case.board: solvers[name](board))
        nodes = {n: runs[n][-1][0].expanded for n in names}
        wrong += sum(result.moves != case.optimal for n in names for result, _, _ in runs[n])
        med = {n: statistics.median(cpu for _, cpu, _ in runs[n]) for n in names}
        for n in names:
            totals[n][0] += nodes[n]
            totals[n][1] += med[n]
        print(f"{case.name:<22} {case.optimal:>4} | "
              + " | ".join(f"{'':>15} {nodes[n]:>12,} {med[n]:>7.3f}" for n in names)
              + f" | {med[names[1]] / max(med[names[0]], 1e-9):.2f}", flush=True)
    print(f"\n{len(instances)} instances, {wrong} wrong answers; {rounds} interleaved rounds, one thread; "
          f"load {os.getloadavg()[0]:.1f}")
    for n in names:
        nodes_, secs = totals[n]
        print(f"{n:>15}: {nodes_:,} nodes, {secs:.3f} s CPU ({nodes_ / max(secs, 1e-9) / 1e6:.1f} M nodes/s)")
    (n0, s0), (n1, s1) = totals[names[0]], totals[names[1]]
    print(f"{ratio_name}: nodes {n1 / max(n0, 1):.2f}, seconds {s1 / max(s0, 1e-9):.2f}; peak RSS {peak_mb():.0f} MB")
    return 1 if wrong else 0


def side_by_side_instances(description: str, choices: dict[str, list[str]] | None = None
                           ) -> tuple[list[Instance], argparse.Namespace]:
    """The command line of a side-by-side script (``--file``, ``--limit``, ``--rounds``, ``--shared``,
    and an option per ``choices`` key, its first value the default): the 4×4 instances it names,
    and the arguments."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", default=str(DEFAULT_SHARED))
    p.add_argument("--file", default="korf100.txt", help="instances in <shared>/bench (default korf100.txt)")
    p.add_argument("--limit", type=int, default=None, help="only the first LIMIT 4x4 instances")
    p.add_argument("--rounds", type=int, default=3, help="interleaved runs of each per instance")
    for name, values in (choices or {}).items():
        p.add_argument(f"--{name}", choices=values, default=values[0], help=f"default {values[0]}")
    args = p.parse_args()
    instances = [case for case in read_lines(Path(args.shared) / "bench" / args.file) if case.board.n == 4]
    return instances[:args.limit], args


BEFORE_8_7 = ((1, 2, 3, 4, 5, 6, 7), (9, 10, 11, 12, 13, 14, 15), (8,))
"""The 4×4 partition the solver used before its 8-7: the top seven tiles, the bottom seven, tile 8 alone."""


def heuristic_7_7_1(flipped: bool = True):
    """The 7-7-1 heuristic (plain and reflected views, and with ``flipped`` its two flipped ones too).

    The top seven's table is not shipped: the first call builds it (about 30 s) into the table cache.
    """
    from solver.search.pdb.database import concatenate_tables, heuristic_from_tables, load_tables

    tables = {info.tiles: info.table for info in load_tables(4, BEFORE_8_7)}
    flat, starts = concatenate_tables(tables)
    return heuristic_from_tables(4, [BEFORE_8_7], flat, starts, flipped=flipped)
