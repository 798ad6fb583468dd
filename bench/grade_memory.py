"""The grader's own peak memory against the size of the class: synthetic copies of one student.

    python bench/grade_memory.py [--students 100 300 1000] [--cases 2x2-rand-01 ...] [-j 2]

Each size grades that many copies of examples/submissions/AC-python-correct in its own process
(``grade`` called in-process, so ``ru_maxrss`` of RUSAGE_SELF is the grader's, not a submission's)
and prints the peak, and the growth per student between consecutive sizes. Target: under 300 MB at
1,000 students.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STUDENT = REPO / "examples" / "submissions" / "AC-python-correct"
CHILD = """import resource, sys
from grader.cli import entry
code = entry(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--students", type=int, nargs="+", default=[100, 300, 1000])
    p.add_argument("--cases", nargs="+", default=["2x2-rand-01"])
    p.add_argument("-j", "--jobs", type=int, default=2)
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="npuzzle-memory-"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    previous: tuple[int, float] | None = None
    try:
        for count in sorted(args.students):
            students = base / f"class-{count}"
            for number in range(count):
                shutil.copytree(STUDENT, students / f"student-{number:05d}")
            argv = [sys.executable, "-c", CHILD, "run", str(students), "--out", str(base / f"out-{count}"),
                    "-j", str(args.jobs), "--no-progress", *[f"--cases={case}" for case in args.cases]]
            started = time.perf_counter()
            done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - started
            peak_kb, code = done.stdout.split()[-2:]
            peak = int(peak_kb) / 1024
            growth = f", {1024 * (peak - previous[1]) / (count - previous[0]):.1f} KB more per student" \
                if previous else ""
            print(f"{count:5d} students: grader peak {peak:6.1f} MB (exit {code}, {wall:.0f} s){growth}", flush=True)
            previous = (count, peak)
            shutil.rmtree(students, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
