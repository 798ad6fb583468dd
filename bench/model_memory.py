"""What typed results cost: memory and time per case result, grader/model against a baseline revision.

    python bench/model_memory.py [--baseline REV] [--students 1000] [--cases 40] [--rounds 2]

Each round builds one synthetic class (every case result with a 20-board path, messages shared as the
pipeline shares them) in a fresh process for the baseline (its ``grader/`` and ``solver/`` from ``git archive``)
and for this checkout, interleaved, and prints per side: the bytes held per case result (tracemalloc, after
building), the seconds to build the class, and the seconds to write its results.json text; then new/old ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time, tracemalloc
students, per = int(sys.argv[1]), int(sys.argv[2])
try:
    from grader.model.results import CaseResult, GradingResults, SubmissionResult
except ImportError:
    from grader.reports.results import CaseResult, GradingResults, SubmissionResult
from grader.judging.verdicts import Verdict
from grader.reports.json_results import results_text
boards = [tuple((i + k) % 9 for k in range(9)) for i in range(20)]
path = tuple(boards)
cases = tuple({"id": f"c{j}", "points": 1.0, "n": 3, "solvable": True, "optimal_moves": 4,
               "visibility": "visible", "board": list(boards[0])} for j in range(per))
build = {"language": "python", "ok": True, "entry": "main.py", "verdict": None, "message": "ok", "log": "",
         "seconds": 0.1}
def make():
    return tuple(SubmissionResult(f"s{i:05d}", "python", build, tuple(
        CaseResult(case=f"c{j}", verdict=Verdict.AC, points=1.0, max_points=1.0, message="a legal 4-move path",
                   seconds=0.25, cpu_seconds=0.2, exit_code=0, moves=4, optimal_moves=4, solvable=True, path=path)
        for j in range(per)), float(per)) for i in range(students))
started = time.perf_counter()
subs = make()
built = time.perf_counter() - started
del subs
tracemalloc.start()  # apart from the timing: tracing slows every allocation
subs = make()
held = tracemalloc.get_traced_memory()[0]
tracemalloc.stop()
results = GradingResults("bench", "/bench", {"name": "bench"}, cases, subs)
started = time.perf_counter()
text = results_text(results)
written = time.perf_counter() - started
print(json.dumps({"bytes_per_case": held / (students * per), "build": built, "write": written, "size": len(text)}))
"""


def checkout(rev: str, folder: Path) -> Path:
    """``grader/`` and ``solver/`` as they were at ``rev``, in ``folder``."""
    archive = folder / "baseline.tar"
    subprocess.run(["git", "archive", "-o", str(archive), rev, "grader", "solver"], cwd=REPO, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "baseline", filter="data")
    return folder / "baseline"


def measure(root: Path, students: int, cases: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(students), str(cases)], env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="model-memory-") as temp:
        old_root = checkout(args.baseline, Path(temp))
        rows: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(args.rounds):  # interleaved: both sides see the same machine load
            rows["old"].append(measure(old_root, args.students, args.cases))
            rows["new"].append(measure(REPO, args.students, args.cases))
    print(f"{args.students} students x {args.cases} cases, best of {args.rounds} rounds")
    best = {side: {key: min(r[key] for r in runs) for key in runs[0]} for side, runs in rows.items()}
    print(f"{'':<16}{'bytes/case':>12}{'build s':>10}{'write s':>10}{'json bytes':>14}")
    for side, label in (("old", f"baseline {args.baseline}"), ("new", "this checkout")):
        b = best[side]
        print(f"{label:<16}{b['bytes_per_case']:>12.0f}{b['build']:>10.2f}{b['write']:>10.2f}{b['size']:>14,.0f}")
    ratio = {key: best["new"][key] / best["old"][key] for key in best["old"]}
    print(f"{'ratio new/old':<16}{ratio['bytes_per_case']:>12.2f}{ratio['build']:>10.2f}{ratio['write']:>10.2f}"
          f"{ratio['size']:>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
