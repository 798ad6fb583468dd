"""Consecutive `grade -j 8` runs of a mixed Java + Python class: crashes and verdict disagreements, counted.

    python bench/parallel_stress.py [--runs 20] [--copies 2] [--cases 3x3-rand-01 3x3-unsolvable-01]

Each run is its own `grade` process (a segfault shows as a negative return code, not a lost test
session) over COPIES copies of examples/submissions. Prints, per run, its wall time, return code and
whether every case's verdict equals the first run's; exit status 1 if any run crashed or disagreed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def matrix(out: Path) -> dict[str, list[str]]:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["id"]: [c["verdict"] for c in s["cases"]] for s in document["submissions"]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--copies", type=int, default=2)
    p.add_argument("--cases", nargs="+", default=["3x3-rand-01", "3x3-unsolvable-01"])
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="npuzzle-stress-"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    failures = 0
    try:
        for path in sorted((REPO / "examples" / "submissions").iterdir()):
            if path.is_dir():
                for copy in range(args.copies):
                    shutil.copytree(path, base / "class" / f"{path.name}--{copy}")
        first: dict[str, list[str]] | None = None
        for run in range(1, args.runs + 1):
            out = base / f"out-{run}"
            argv = [sys.executable, "-m", "grader.cli", str(base / "class"), "--out", str(out), "-j", "8",
                    "--no-progress", "--time-limit", "1", *[f"--cases={case}" for case in args.cases]]
            started = time.perf_counter()
            done = subprocess.run(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  check=False)
            wall = time.perf_counter() - started
            if done.returncode != 0:
                failures += 1
                print(f"run {run:2d}: {wall:6.1f} s  exit {done.returncode}  CRASH: {done.stderr.decode()[-300:]}")
                continue
            found = matrix(out)
            first = first or found
            same = found == first
            je = sum(v.count("JE") for v in found.values())
            failures += (not same) + (je > 0)
            print(f"run {run:2d}: {wall:6.1f} s  exit 0  same verdicts as run 1: {same}  JE: {je}", flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{args.runs} runs, {failures} with a crash, a JE or a different verdict")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
