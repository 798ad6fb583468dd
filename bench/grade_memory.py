"""The grader's own peak memory against the size of the class: synthetic copies of real students.

    python bench/grade_memory.py [--students 100 300 1000] [--cases 2x2-rand-01 ...] [-j 2]
    python bench/grade_memory.py --replay RESULTS_JSON [--students 100 1000] [--baseline main] [--trace 10]

Plain mode grades that many copies of examples/submissions/AC-python-correct, for real, in a process of
its own (``grade`` called in-process, so ``ru_maxrss`` of RUSAGE_SELF is the grader's, not a submission's)
and prints the peak, and the growth per student between consecutive sizes.

``--replay`` takes a graded results.json (e.g. examples/submissions graded on the cmpe160 set; format 1 or 2,
handed to both trees as format 1, paths as lists, which every revision reads) and runs ``grade`` on N copies
of its submissions with the sandbox left out: each build returns the copied student's recorded build and each
run a fresh copy of its recorded case result (parsed from its JSON, so every string is new, as a real run's
are). Everything of the grader's own is real: discovery, the
journal, the results held for the score table, every report written. Each size runs this checkout and
``--baseline`` (a git revision, loaded from ``git archive``) in turns, and prints both peaks and both
results.json sizes side by side. ``--trace K`` runs this checkout once more under tracemalloc and prints
the K biggest allocation sites alive at the end of grading and at the peak. Target: under 300 MB and a
results.json under 40 MB at 1,000 students.
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
STUDENT = REPO / "examples" / "submissions" / "AC-python-correct"
CHILD = """import resource, sys
from grader.cli import entry
code = entry(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""
# The replayed class: builds and runs come back from a recorded results.json; the rest is the grader's.
# Copies are named NNNNN~<original id>, so a copy's build names the original, and its runs find it by that.
REPLAY_CHILD = """import json, resource, sys
from pathlib import Path
recorded = {s["id"]: s for s in json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))["submissions"]}
case_text = {(sid, c["case"]): json.dumps(c) for sid, s in recorded.items() for c in s["cases"]}
import grader.pipeline as pipeline
from grader import case_run
from grader.intake.build import Build
from grader.judging.verdicts import Verdict
from grader.reports.json_results import case_from_json

def build(root, folder, assignment, *rest, **named):
    original = Path(root).name.split("~", 1)[1]
    b = recorded[original]["build"]
    failure = Verdict(b["verdict"]) if b.get("verdict") else None if b.get("ok", True) else Verdict.CE
    return Build(b.get("language") or "unknown", Path(original), entry=b.get("entry"), message=b.get("message") or "",
                 log=b.get("log") or "", seconds=b.get("seconds") or 0.0, failure=failure)

def run(self, built, case):
    return case_from_json(json.loads(case_text[(str(built.bundle), case.id)]))

pipeline.build = build
case_run.CaseRunner.run = run
trace = int(sys.argv[2])
if trace:
    import tracemalloc
    tracemalloc.start(12)
    import grader.reports.outputs as outputs
    written = outputs.write_reports
    def write_reports(*args, **named):  # what the grading left alive, before any report is written
        snapshot("alive when the reports start", tracemalloc.take_snapshot())
        return written(*args, **named)
    pipeline.write_reports = write_reports

def snapshot(title, snap):
    print(f"--- {title}: {sum(s.size for s in snap.statistics('filename')) / 2**20:.1f} MB traced", file=sys.stderr)
    for stat in snap.statistics("traceback")[:trace]:
        frames = [f for f in stat.traceback.format() if "File" in f and "/grader/" in f][-3:]
        print(f"{stat.size / 2**20:8.2f} MB {stat.count:9,d} blocks  " + " <- ".join(
            f.strip().split("/grader/")[-1] for f in reversed(frames)), file=sys.stderr)

from grader.cli import entry
code = entry(sys.argv[3:])
if trace:
    print(f"--- tracemalloc peak {tracemalloc.get_traced_memory()[1] / 2**20:.1f} MB", file=sys.stderr)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--students", type=int, nargs="+", default=[100, 300, 1000])
    p.add_argument("--cases", nargs="+", default=None, help="case globs (plain mode default: 2x2-rand-01)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--replay", type=Path, default=None, help="a graded results.json whose students are copied")
    p.add_argument("--testcases", default=str(REPO / "testcases" / "cmpe160"),
                   help="the test set the replayed results were graded on")
    p.add_argument("--baseline", default="main", help="git revision beside this checkout (--replay)")
    p.add_argument("--trace", type=int, default=0, help="--replay: also K top allocation sites (tracemalloc)")
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="npuzzle-memory-"))
    try:
        if args.replay:
            return replay(args, base)
        return plain(args, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def plain(args: argparse.Namespace, base: Path) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    previous: tuple[int, float] | None = None
    for count in sorted(args.students):
        students = base / f"class-{count}"
        for number in range(count):
            shutil.copytree(STUDENT, students / f"student-{number:05d}")
        argv = [sys.executable, "-c", CHILD, "run", str(students), "--out", str(base / f"out-{count}"),
                "-j", str(args.jobs), "--no-progress", *[f"--cases={case}" for case in args.cases or ["2x2-rand-01"]]]
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
    return 0


def as_format_1(document: dict) -> dict:
    """The recorded results with every printed path as lists of boards (format 1), which every revision reads."""
    sys.path.insert(0, str(REPO))
    from grader.model import pathcode

    for submission in document["submissions"]:
        for case in submission["cases"]:
            boards = pathcode.decode(case.get("path"))
            case["path"] = [list(board) for board in boards] if boards is not None else None
    return {**document, "format_version": 1}


def replay(args: argparse.Namespace, base: Path) -> int:
    document = as_format_1(json.loads(args.replay.read_text(encoding="utf-8")))
    recorded = document["submissions"]
    args.recorded = base / "recorded.json"
    args.recorded.write_text(json.dumps(document), encoding="utf-8")
    del document
    baseline = base / "baseline"
    baseline.mkdir()
    # Piped, not read into this process: a child's ru_maxrss starts from what its parent held when it forked
    # (Linux keeps the high-water mark across exec), and the archive holds the solver's tables.
    archive = subprocess.Popen(["git", "archive", args.baseline, "grader", "solver"], cwd=REPO,
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(baseline)], stdin=archive.stdout, check=True)
    archive.stdout.close()
    if archive.wait() != 0:
        sys.exit(f"git archive {args.baseline} failed")
    trees = {f"baseline {args.baseline}": baseline, "this checkout": REPO}
    print(f"replayed: {len(recorded)} graded submissions of {args.replay} on {args.testcases}, "
          f"{len(recorded[0]['cases'])} cases each; -j {args.jobs}")
    print(f"{'students':>8}  {'code':<16}{'peak MB':>9}{'KB/student':>12}{'results.json':>14}{'wall s':>8}")
    previous: dict[str, tuple[int, float]] = {}
    for count in sorted(args.students):
        students = base / f"class-{count}"
        for number in range(count):  # a one-line Python file each: the build is replayed, discovery is real
            folder = students / f"{number:05d}~{recorded[number % len(recorded)]['id']}"
            folder.mkdir(parents=True)
            (folder / "solver.py").write_text("print('replayed')\n", encoding="utf-8")
        for name, tree in trees.items():
            out = base / f"out-{count}"
            shutil.rmtree(out, ignore_errors=True)
            peak, code, wall = child(tree, args, students, out, 0)
            size = (out / "results.json").stat().st_size if (out / "results.json").exists() else 0
            growth = ""
            if name in previous:
                growth = f"{1024 * (peak - previous[name][1]) / (count - previous[name][0]):.0f}"
            print(f"{count:8d}  {name:<16}{peak:9.1f}{growth:>12}{size / 1e6:>12.1f}MB{wall:>8.0f}"
                  + (f"  exit {code}" if code not in ("0", "1") else ""), flush=True)
            previous[name] = (count, peak)
        if args.trace:
            child(REPO, args, students, base / "out-trace", args.trace)
        shutil.rmtree(students, ignore_errors=True)
    return 0


def child(tree: Path, args: argparse.Namespace, students: Path, out: Path, trace: int) -> tuple[float, str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, "-c", REPLAY_CHILD, str(args.recorded), str(trace), "run", str(students),
            "--testcases", args.testcases, "--out", str(out), "-j", str(args.jobs), "--no-progress"]
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if trace:
        print("\n".join(line for line in done.stderr.splitlines() if line.startswith(("---", " "))))
    try:
        peak_kb, code = done.stdout.split()[-2:]
    except ValueError:
        sys.exit(f"the grade process failed:\n{done.stderr[-3000:]}")
    return int(peak_kb) / 1024, code, wall


if __name__ == "__main__":
    sys.exit(main())
