"""Verdicts on a busy machine: the README's main job alone, then K copies of it at once, in one run.

    python bench/grade_under_load.py [--jobs-at-once 3] [--hogs 6] [--testcases DIR] [--cases ID ...] [SUBMISSIONS]

Each job is a separate ``grade`` process (its own -j default), so with ``--jobs-at-once 3``
every job shares the machine with two other grading jobs; ``--hogs 6`` adds six CPU-bound
processes beside them. Prints each job's wall time, the
load average, and checks what a TA relies on: every job gives every sample the verdict in
its folder name (``AC-…``, ``TLE-…``), the jobs agree case by case, and no case of a sample
that is not a TLE sample is TLE. Exit status 1 if any of that fails.
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


def run_jobs(count: int, submissions: Path, testcases: Path | None, base: Path,
             cases: list[str] = ()) -> tuple[float, list[dict]]:
    """``count`` grade processes started together; (wall seconds of the slowest, each job's results)."""
    extra = (["--testcases", str(testcases)] if testcases else []) + [f"--cases={case}" for case in cases]
    started = time.perf_counter()
    jobs = []
    for number in range(count):
        out = base / f"out-{count}-{number}"
        log = open(base / f"log-{count}-{number}", "wb")  # noqa: SIM115  (held until its grade process is reaped)
        argv = [sys.executable, "-m", "grader.cli", str(submissions), "--out", str(out), "--no-progress", *extra]
        jobs.append((out, log, subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)))
    results = []
    for out, log, job in jobs:
        job.wait()
        log.close()
        results.append(json.loads((out / "results.json").read_text(encoding="utf-8")))
    return time.perf_counter() - started, results


def verdicts(results: dict) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {s["id"]: (s["verdict"], tuple(c["verdict"] for c in s["cases"])) for s in results["submissions"]}


def problems(results: dict) -> list[str]:
    found = []
    for sid, (verdict, cases) in verdicts(results).items():
        expected = sid.split("-", 1)[0]
        if verdict != expected:
            found.append(f"{sid}: {verdict}, not {expected}")
        if expected != "TLE" and "TLE" in cases:
            found.append(f"{sid}: {cases.count('TLE')} case(s) TLE")
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("submissions", nargs="?", type=Path, default=REPO / "examples" / "submissions")
    p.add_argument("--jobs-at-once", type=int, default=3)
    p.add_argument("--testcases", type=Path, default=None)
    p.add_argument("--hogs", type=int, default=0, help="CPU-bound processes running beside the busy jobs")
    p.add_argument("--cases", nargs="*", default=[], help="grade only these cases (grade --cases)")
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="npuzzle-bench-load-"))
    failed = False
    try:
        alone_s, (alone,) = run_jobs(1, args.submissions.resolve(), args.testcases, base, args.cases)
        print(f"1 job alone:          {alone_s:7.1f} s   load {os.getloadavg()[0]:.1f}")
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                for _ in range(args.hogs)]
        try:
            busy_s, busy = run_jobs(args.jobs_at_once, args.submissions.resolve(), args.testcases, base, args.cases)
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
        print(f"{args.jobs_at_once} jobs at once, {args.hogs} hogs: {busy_s:7.1f} s   load {os.getloadavg()[0]:.1f}   "
              f"({busy_s / alone_s:.1f}x the wall time of one)")
        for label, results in [("alone", alone)] + [(f"busy job {n + 1}", r) for n, r in enumerate(busy)]:
            found = problems(results)
            reruns = sum("run twice:" in c.get("message", "")
                         for s in results["submissions"] for c in s["cases"])
            print(f"  {label:<12} {'right verdicts' if not found else 'WRONG: ' + '; '.join(found)}"
                  f"   cases re-run near the limit: {reruns}")
            failed |= bool(found)
        same = all(verdicts(r) == verdicts(alone) for r in busy)
        print(f"  every busy job's case verdicts equal the job alone's: {'yes' if same else 'NO'}")
        failed |= not same
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
