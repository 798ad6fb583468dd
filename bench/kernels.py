"""The numba kernel and the native (C) 4×4 kernel side by side, on the same instances in one run.

    python bench/kernels.py [--file korf100.txt] [--limit 20] [--rounds 3] [--threads 1]

Both kernels run the same search (the same nodes, path and counts: checked here on every
instance), so the ratio is the cost of a node. Rounds are interleaved (numba, native, then
native, numba, ...) so that a change of load on a shared machine hits both; each instance's
time is the median of its rounds. Times are CPU seconds of the solving thread (the wall
clock of a single-threaded search on a busy machine counts other people's work) and wall
seconds; nodes per second use CPU time.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from benchlib import DEFAULT_SHARED, peak_mb, read_lines

from solver.search import native
from solver.search.idastar import run
from solver.search.pdb import pdb_heuristic

KERNELS = ("numba", "native")


def solve_with(kernel: str, board, heuristic, threads: int) -> tuple[object, float, float]:
    os.environ[native.KERNEL_ENV] = kernel
    wall, cpu = time.perf_counter(), time.thread_time()
    result = run(board, heuristic, "pdb", threads=threads)
    return result, time.thread_time() - cpu, time.perf_counter() - wall


def main() -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", default=str(DEFAULT_SHARED))
    p.add_argument("--file", default="korf100.txt", help="instances in <shared>/bench (default korf100.txt)")
    p.add_argument("--limit", type=int, default=None, help="only the first LIMIT instances")
    p.add_argument("--skip", type=int, default=0, help="leave out the first SKIP instances (e.g. the 3x3 ones)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved runs of each kernel per instance")
    p.add_argument("--threads", type=int, default=1, help="threads per search (CPU time then covers one only)")
    args = p.parse_args()
    from pathlib import Path

    instances = [case for case in read_lines(Path(args.shared) / "bench" / args.file)[args.skip:]
                 if case.board.n == 4][:args.limit]
    heuristic = pdb_heuristic(4)
    warm = {}
    for kernel in KERNELS:  # compile or load both before timing
        began = time.perf_counter()
        solve_with(kernel, instances[0].board, heuristic, 1)
        warm[kernel] = time.perf_counter() - began
    print(f"warm-up (first solve, compile or load included): "
          + ", ".join(f"{k} {s:.2f} s" for k, s in warm.items()))
    print(f"{'instance':<22} {'len':>4} {'nodes':>12} | {'numba cpu s':>11} {'M/s':>6} | {'native cpu s':>12} "
          f"{'M/s':>6} | {'ratio':>6}")
    totals = {k: [0.0, 0.0] for k in KERNELS}  # cpu, wall (medians per instance)
    nodes = wrong = 0
    for case in instances:
        cpu = {k: [] for k in KERNELS}
        wall = {k: [] for k in KERNELS}
        answers = {}
        for r in range(args.rounds):
            for kernel in (KERNELS if r % 2 == 0 else KERNELS[::-1]):
                result, c, w = solve_with(kernel, case.board, heuristic, args.threads)
                cpu[kernel].append(c)
                wall[kernel].append(w)
                answers[kernel] = (result.path, result.expanded, result.generated)
        same = answers["numba"] == answers["native"]
        length = len(answers["native"][0]) - 1
        ok = same and length == case.optimal
        wrong += not ok
        expanded = answers["native"][1]
        nodes += expanded
        med = {k: statistics.median(cpu[k]) for k in KERNELS}
        for k in KERNELS:
            totals[k][0] += med[k]
            totals[k][1] += statistics.median(wall[k])
        print(f"{case.name:<22} {length:>4} {expanded:>12,} | {med['numba']:>11.3f} "
              f"{expanded / max(med['numba'], 1e-9) / 1e6:>6.1f} | {med['native']:>12.3f} "
              f"{expanded / max(med['native'], 1e-9) / 1e6:>6.1f} | {med['numba'] / max(med['native'], 1e-9):>6.2f}"
              + ("" if ok else "  WRONG: " + ("kernels differ" if not same else f"expected {case.optimal}")),
              flush=True)
    print(f"\n{len(instances)} instances, {len(instances) - wrong} optimal and identical in both kernels; "
          f"{nodes:,} nodes; {args.rounds} interleaved rounds, {args.threads} thread(s); load {os.getloadavg()[0]:.1f}")
    for k in KERNELS:
        print(f"{k:>6}: {totals[k][0]:.3f} s CPU ({nodes / max(totals[k][0], 1e-9) / 1e6:.1f} M nodes/s), "
              f"{totals[k][1]:.3f} s wall")
    print(f"ratio numba/native: {totals['numba'][0] / max(totals['native'][0], 1e-9):.2f}x CPU, "
          f"{totals['numba'][1] / max(totals['native'][1], 1e-9):.2f}x wall")
    print(f"peak memory (max RSS of this process, both kernels and numba loaded): {peak_mb():.0f} MB")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
