"""4×4 search kernels side by side, on the same instances in one run: numba's, the native (C) one,
and optionally the native kernel of an earlier revision.

    python bench/kernels.py [--file korf100.txt] [--limit 20] [--rounds 3] [--threads 1] [--against REV]

``--against REV`` compiles ``solver/search/kernel4x4.c`` as it was at git revision REV (with this
tree's builder and flags) and runs it as a third kernel, ``native@REV``, with this tree's Spec
(which only grows at the end, so an older kernel reads the part it knows). Older kernels read
one frame per set and know neither the remembered route nor the pruning of redundant routes,
so with ``--against`` every kernel runs the plain and reflected views only, children in plain
direction order, skipping only the move back (``bench/pdb_views.py`` and
``bench/idastar_options.py`` measure those).

Every kernel runs the same search (the same nodes, path and counts: checked here on every
instance), so the ratios are the cost of a node. Rounds are interleaved (each round reverses
the order of the one before) so that a change of load on a shared machine hits all of them;
each instance's time is the median of its rounds. Times are CPU seconds of the solving thread
(the wall clock of a single-threaded search on a busy machine counts other people's work) and
wall seconds; nodes per second use CPU time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchlib import DEFAULT_SHARED, interleaved, peak_mb, read_lines

from solver.search import native, parallel
from solver.search.idastar import run
from solver.search.pdb.database import pdb_heuristic

REPO = Path(__file__).resolve().parent.parent


def revision_kernel(rev: str, heuristic, workdir: Path) -> native.NativeKernel:
    """The native kernel as it was at git revision ``rev``, compiled into ``workdir``."""
    source = workdir / "kernel4x4.c"
    source.write_bytes(subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:solver/search/kernel4x4.c"],
                                      check=True, capture_output=True).stdout)
    library = workdir / "kernel.so"
    compiler = native._compiler()
    if compiler is None:
        raise SystemExit("--against needs a C compiler")
    subprocess.run([compiler, *native.FLAGS, "-o", str(library), str(source),
                    str(REPO / "solver" / "search" / "build4x4.c")], check=True)
    return native.NativeKernel(native._load(library), heuristic, native.spec_array(4, heuristic))


def chooser(name: str, older: native.NativeKernel | None) -> Callable[[], None]:
    """What makes the next search use kernel ``name``."""
    if name.startswith("native@"):
        def use() -> None:
            os.environ[native.KERNEL_ENV] = "native"
            parallel.native_kernel = lambda n, h: older
        return use

    def use() -> None:
        os.environ[native.KERNEL_ENV] = name
        parallel.native_kernel = native.native_kernel
    return use


def solve_with(use: Callable[[], None], board, heuristic, threads: int, latest: bool = True):
    """Solve with the kernel ``use`` picks; ``latest=False`` leaves out what older kernels lack (the
    remembered route and the pruning of redundant routes)."""
    use()
    return run(board, heuristic, "pdb", threads=threads, route_first=latest, pruned=latest, dual=latest)


def main() -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", default=str(DEFAULT_SHARED))
    p.add_argument("--file", default="korf100.txt", help="instances in <shared>/bench (default korf100.txt)")
    p.add_argument("--limit", type=int, default=None, help="only the first LIMIT instances")
    p.add_argument("--skip", type=int, default=0, help="leave out the first SKIP instances (e.g. the 3x3 ones)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved runs of each kernel per instance")
    p.add_argument("--threads", type=int, default=1, help="threads per search (CPU time then covers one only)")
    p.add_argument("--against", metavar="REV", help="also the native kernel of git revision REV")
    p.add_argument("--no-numba", action="store_true", help="leave numba's kernel out")
    args = p.parse_args()
    args.latest = not args.against

    instances = [case for case in read_lines(Path(args.shared) / "bench" / args.file)[args.skip:]
                 if case.board.n == 4][:args.limit]
    # an older kernel reads one frame per set, which the flipped views (a frame per pattern) do not have
    heuristic = pdb_heuristic(4, flipped=not args.against)
    kernels = ([] if args.no_numba else ["numba"]) + ([f"native@{args.against}"] if args.against else []) + ["native"]
    with tempfile.TemporaryDirectory() as scratch:
        older = revision_kernel(args.against, heuristic, Path(scratch)) if args.against else None
        uses = {name: chooser(name, older) for name in kernels}
        return compare(instances, heuristic, kernels, uses, args)


def compare(instances, heuristic, kernels: list[str], uses: dict[str, Callable[[], None]], args) -> int:
    warm = {}
    for kernel in kernels:  # compile or load each before timing
        began = time.perf_counter()
        solve_with(uses[kernel], instances[0].board, heuristic, 1, args.latest)
        warm[kernel] = time.perf_counter() - began
    print("warm-up (first solve, compile or load included): " + ", ".join(f"{k} {s:.2f} s" for k, s in warm.items()))
    print(f"{'instance':<22} {'len':>4} {'nodes':>12} | "
          + " | ".join(f"{k[:18]:>18} {'M/s':>5}" for k in kernels) + " | ratios to native")
    totals = {k: [0.0, 0.0] for k in kernels}  # cpu, wall (medians per instance)
    nodes = wrong = 0
    for case in instances:
        runs = interleaved(kernels, args.rounds,
                           lambda kernel, board=case.board: solve_with(uses[kernel], board, heuristic, args.threads,
                                                     args.latest))
        cpu = {k: [c for _, c, _ in runs[k]] for k in kernels}
        wall = {k: [w for _, _, w in runs[k]] for k in kernels}
        answers = {k: (runs[k][-1][0].path, runs[k][-1][0].expanded, runs[k][-1][0].generated) for k in kernels}
        same = all(answer == answers["native"] for answer in answers.values())
        length = len(answers["native"][0]) - 1
        ok = same and length == case.optimal
        wrong += not ok
        expanded = answers["native"][1]
        nodes += expanded
        med = {k: statistics.median(cpu[k]) for k in kernels}
        for k in kernels:
            totals[k][0] += med[k]
            totals[k][1] += statistics.median(wall[k])
        print(f"{case.name:<22} {length:>4} {expanded:>12,} | "
              + " | ".join(f"{med[k]:>18.3f} {expanded / max(med[k], 1e-9) / 1e6:>5.1f}" for k in kernels) + " | "
              + " ".join(f"{med[k] / max(med['native'], 1e-9):.2f}" for k in kernels if k != "native")
              + ("" if ok else "  WRONG: " + ("kernels differ" if not same else f"expected {case.optimal}")),
              flush=True)
    print(f"\n{len(instances)} instances, {len(instances) - wrong} optimal and identical in every kernel; "
          f"{nodes:,} nodes; {args.rounds} interleaved rounds, {args.threads} thread(s); load {os.getloadavg()[0]:.1f}")
    for k in kernels:
        print(f"{k:>18}: {totals[k][0]:.3f} s CPU ({nodes / max(totals[k][0], 1e-9) / 1e6:.1f} M nodes/s), "
              f"{totals[k][1]:.3f} s wall")
    for k in kernels:
        if k != "native":
            print(f"ratio {k}/native: {totals[k][0] / max(totals['native'][0], 1e-9):.2f}x CPU, "
                  f"{totals[k][1] / max(totals['native'][1], 1e-9):.2f}x wall")
    print(f"peak memory (max RSS of this process, every kernel loaded): {peak_mb():.0f} MB")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
