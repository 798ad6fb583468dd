"""The 4×4 heuristic's views side by side: the plain and reflected lookups alone, and with the
flipped ones (solver/search/pdb_views.py), on the same instances in one run.

    python bench/pdb_views.py [--file korf100.txt] [--skip 2] [--limit 20] [--rounds 3]

Both read the same two tables with the same native kernel; the flipped views add two lookups
per child and take fewer nodes. Rounds are interleaved (each round reverses the order of the one
before) so that a change of load hits both; each instance's time is the median of its rounds, in
CPU seconds of the solving thread. Every answer is checked against the file's optimum.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from benchlib import DEFAULT_SHARED, interleaved, peak_mb, read_lines

from solver.search.idastar import run
from solver.search.pdb import pdb_heuristic


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", default=str(DEFAULT_SHARED))
    p.add_argument("--file", default="korf100.txt", help="instances in <shared>/bench (default korf100.txt)")
    p.add_argument("--limit", type=int, default=None, help="only the first LIMIT 4x4 instances")
    p.add_argument("--rounds", type=int, default=3, help="interleaved runs of each heuristic per instance")
    args = p.parse_args()
    instances = [case for case in read_lines(Path(args.shared) / "bench" / args.file) if case.board.n == 4]
    instances = instances[:args.limit]
    heuristics = {"plain+reflected": pdb_heuristic(4, flipped=False), "all four views": pdb_heuristic(4)}
    names = list(heuristics)
    for h in heuristics.values():  # tables, compiled kernel
        run(instances[0].board, h, "pdb", threads=1)
    print(f"{'instance':<22} {'len':>4} | " + " | ".join(f"{n:>15} {'nodes':>12} {'s':>7}" for n in names)
          + " | ratio s")
    totals = {n: [0, 0.0] for n in names}
    wrong = 0
    for case in instances:
        runs = interleaved(names, args.rounds, lambda name: run(case.board, heuristics[name], "pdb", threads=1))
        nodes = {n: runs[n][-1][0].expanded for n in names}
        wrong += sum(result.moves != case.optimal for n in names for result, _, _ in runs[n])
        med = {n: statistics.median(cpu for _, cpu, _ in runs[n]) for n in names}
        for n in names:
            totals[n][0] += nodes[n]
            totals[n][1] += med[n]
        print(f"{case.name:<22} {case.optimal:>4} | "
              + " | ".join(f"{'':>15} {nodes[n]:>12,} {med[n]:>7.3f}" for n in names)
              + f" | {med[names[1]] / max(med[names[0]], 1e-9):.2f}", flush=True)
    print(f"\n{len(instances)} instances, {wrong} wrong answers; {args.rounds} interleaved rounds, one thread; "
          f"load {os.getloadavg()[0]:.1f}")
    for n in names:
        nodes_, secs = totals[n]
        print(f"{n:>15}: {nodes_:,} nodes, {secs:.3f} s CPU ({nodes_ / max(secs, 1e-9) / 1e6:.1f} M nodes/s)")
    (n0, s0), (n1, s1) = totals[names[0]], totals[names[1]]
    print(f"all four views / plain+reflected: nodes {n1 / n0:.2f}, seconds {s1 / s0:.2f}; peak RSS {peak_mb():.0f} MB")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
