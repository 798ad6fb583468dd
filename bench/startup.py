"""A process that solves one 4×4 board: start-up, table load and solve, native kernel against numba.

    python bench/startup.py [--runs 9] [--instance 1]

Runs ``python -m solver board.txt`` as a fresh process, alternately with ``NPUZZLE_KERNEL=native``
and ``NPUZZLE_KERNEL=numba`` (the kernel before the native one: importing numba and loading its
cached kernel), and prints the median wall and CPU seconds and peak RSS of each. The tables
must already be built (``python -m solver tables``); the first run of each kind is a warm-up
(it compiles whatever is not cached yet) and is not counted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import DEFAULT_SHARED, REPO, read_lines

KINDS = ("native", "numba")


def one_run(board_file: Path, kind: str) -> tuple[float, float, float]:
    """(wall s, CPU s, max RSS MB) of one solving process."""
    env = {**os.environ, "NPUZZLE_KERNEL": kind, "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solver", str(board_file)], env=env, check=False, capture_output=True,
                          stdin=subprocess.DEVNULL, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{kind}: exit {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024  # ru_maxrss of children: the largest so far


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    p.add_argument("--runs", type=int, default=9, help="timed processes of each kind (default 9)")
    p.add_argument("--instance", type=int, default=1, help="which of Korf's 100 to solve (default 1)")
    args = p.parse_args()
    case = read_lines(args.shared / "bench" / "korf100.txt")[args.instance - 1]
    n = case.board.n
    rows = [" ".join(str(t) for t in case.board.tiles[r * n:(r + 1) * n]) for r in range(n)]
    with tempfile.TemporaryDirectory() as folder:
        board_file = Path(folder) / "input.txt"
        board_file.write_text(f"{n}\n" + "\n".join(rows) + "\n")
        for kind in KINDS:
            one_run(board_file, kind)
        times = {kind: [] for kind in KINDS}
        for r in range(args.runs):
            for kind in (KINDS if r % 2 == 0 else KINDS[::-1]):
                times[kind].append(one_run(board_file, kind))
    print(f"python -m solver on {case.name} ({case.optimal} moves), {args.runs} processes each, interleaved; "
          f"load {os.getloadavg()[0]:.1f}")
    for kind in KINDS:
        wall = statistics.median(t[0] for t in times[kind])
        cpu = statistics.median(t[1] for t in times[kind])
        print(f"{kind:>6}: median {wall:.3f} s wall, {cpu:.3f} s CPU (min wall {min(t[0] for t in times[kind]):.3f} s)")
    base = statistics.median(t[0] for t in times["numba"]) / statistics.median(t[0] for t in times["native"])
    cpu_ratio = (statistics.median(t[1] for t in times["numba"])
                 / statistics.median(t[1] for t in times["native"]))
    print(f"ratio numba/native: {base:.2f}x wall, {cpu_ratio:.2f}x CPU")
    print("(peak RSS: run one process under /usr/bin/time -v; children's ru_maxrss is the largest of all runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
