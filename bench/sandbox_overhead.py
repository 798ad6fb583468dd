"""Per-run overhead of the sandbox: ``run_command`` with every layer on against a bare
``subprocess.run`` of the same tiny program, interleaved in one process so machine load
hits both alike.

    python bench/sandbox_overhead.py                 # /bin/true, 40 runs each
    python bench/sandbox_overhead.py --runs 100 --program /usr/bin/python3 -c pass
    NPUZZLE_SANDBOX_DISABLE=bwrap python bench/sandbox_overhead.py   # a weaker mode

Prints the layers, the median and 90th percentile wall time of each side, and the
difference of the medians (the target: at most 30 ms more than bare).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from grader.sandbox import isolation, runner, sweep  # noqa: E402

TARGET_MS = 30.0


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="runs of each side (default 40)")
    parser.add_argument("--program", nargs=argparse.REMAINDER, default=["/bin/true"],
                        help="the program and its arguments (default /bin/true); last on the line")
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        plan = isolation.plan()
    print("layers: " + ", ".join(plan.layers))
    folder = sweep.make_temp_folder()
    bare, boxed = [], []
    limits = runner.Limits(wall_seconds=10)
    try:
        for number in range(args.runs + 2):  # the first two of each warm caches and make the slot
            workdir = folder / f"run{number}"
            workdir.mkdir()
            bare_ms = timed(lambda: subprocess.run(args.program, cwd=workdir, stdin=subprocess.DEVNULL,
                                                   capture_output=True, check=False))
            boxed_ms = timed(lambda: runner.run_command(args.program, workdir, limits))
            if number >= 2:
                bare.append(bare_ms)
                boxed.append(boxed_ms)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    def line(name: str, values: list[float]) -> str:
        p90 = statistics.quantiles(values, n=10)[-1] if len(values) >= 10 else max(values)
        return f"{name:<28} median {statistics.median(values):7.1f} ms   p90 {p90:7.1f} ms"

    print(f"program: {' '.join(args.program)}   runs: {len(bare)} each, interleaved")
    print(line("bare subprocess.run", bare))
    print(line("run_command, every layer", boxed))
    extra = statistics.median(boxed) - statistics.median(bare)
    print(f"overhead (median difference): {extra:.1f} ms per run   target <= {TARGET_MS:.0f} ms   "
          f"{'met' if extra <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
