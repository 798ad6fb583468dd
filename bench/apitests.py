"""The full API battery (grader/apitests) of one submission, timed: every depth 1-31 on 3x3, boards up to
127x127, the Princeton test set's visible files, in the sandbox, as ``grade`` runs it; the old code beside the
new, interleaved.

    python bench/apitests.py [SUBMISSION ...] [--testcases testcases/princeton] [--repeat 1] [--old REV]

Default submissions: the correct Java and Python samples of tests/grader/apitests/data. ``--old`` (default:
the last commit before the Java judge) is exported with ``git archive`` and run in a child process beside
this checkout, alternately, so both see the same machine load. For each submission and repeat it prints the
wall time of the whole API part (target: under 20 s on 2 cores), the new/old ratio, and the tests passed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "tests" / "grader" / "apitests" / "data"
OLD = "5ee6af1"
"""The last commit with the in-process Java harness (Python already on the judge); ``--old 12c4915`` is the last
with the in-process Python harness."""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("submissions", nargs="*", type=Path,
                   default=[SAMPLES / "java" / "correct", SAMPLES / "python" / "correct"])
    p.add_argument("--testcases", type=Path, default=REPO / "testcases" / "princeton")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--old", default=OLD)
    p.add_argument("--time-one", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--code", type=Path, default=REPO, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.time_one is not None:
        print(json.dumps(time_one(args.code, args.time_one.resolve(), args.testcases.resolve())))
        return 0
    old = Path(tempfile.mkdtemp(prefix="npuzzle-bench-old-"))
    try:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.old], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        print(f"{'submission':<28} {'code':<8} {'seconds':>8} {'passed':>8}")
        for source in args.submissions:
            times: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.repeat):
                for label, code in (("old", old), ("new", REPO)):
                    got = _child(code, source.resolve(), args.testcases.resolve())
                    times[label].append(got["seconds"])
                    print(f"{source.parent.name + '/' + source.name:<28} {label:<8} {got['seconds']:>8.2f} "
                          f"{got['passed']:>4}/{got['total']:<3} " + "; ".join(got["failed"])[:200], flush=True)
            ratio = statistics.median(times["new"]) / statistics.median(times["old"])
            print(f"{source.parent.name + '/' + source.name:<28} new/old median ratio {ratio:.2f}")
    finally:
        shutil.rmtree(old, ignore_errors=True)
    return 0


def _child(code: Path, source: Path, testcases: Path) -> dict:
    """One whole API part, timed in a fresh interpreter that imports the grader from ``code``."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--time-one", str(source),
                           "--testcases", str(testcases), "--code", str(code)],
                          env={"PYTHONPATH": str(code), "PATH": "/usr/local/bin:/usr/bin:/bin"},
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def time_one(code: Path, source: Path, testcases: Path) -> dict:
    sys.path.insert(0, str(code))
    from grader.apitests.battery import Battery
    from grader.apitests.run import run_api_tests
    from grader.intake.build import build
    from grader.testsets.apiconfig import ApiConfig
    from grader.testsets.assignment import find_assignment, load_assignment
    from grader.testsets.model import load_testset

    testset = load_testset(testcases)
    assignment = load_assignment(find_assignment(testset.root))
    config = assignment.api or ApiConfig()
    battery = Battery(testset.cases, config)
    base = Path(tempfile.mkdtemp(prefix="npuzzle-bench-api-"))
    base.chmod(0o711)
    counter = iter(range(1_000_000))

    def folder(label: str = "run") -> Path:
        made = base / f"{next(counter):05d}-{label}"
        made.mkdir(mode=0o711)
        made.chmod(0o711)
        return made

    try:
        built = build(source, folder("build"), assignment)
        if built.language == "java":  # compiled once per grading process, for every submission: not timed here
            from grader.apitests import java
            java.compiled_harness()
            java.reference_board(java.find_class(built.bundle, list(config.board_classes)) or "Board")
        started = time.perf_counter()
        results = run_api_tests(built, battery, config, assignment, folder)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return {"seconds": seconds, "passed": sum(r.passed for r in results), "total": len(results),
            "failed": [f"{r.name}: {r.message.splitlines()[0][:80]}" for r in results if not r.passed]}


if __name__ == "__main__":
    sys.exit(main())
