"""The HTML report for a large class: seconds to render and bytes written, this checkout beside a baseline.

    python bench/html_report.py [--students 280] [--baseline REV] [--repeat 3] [--read]

A synthetic class on the bundled cmpe160 cases (41): per student a spread of verdicts, with the
printed paths a real run keeps (legal random walks from the case's board for AC/SUB, a walk with an
illegal jump for WA, a runaway 2,000-board path for a few TLE/WA, no path for CE/NO/RTE). The
baseline is the report module and template at REV (default: the commit before this work), loaded
from git into a temporary package, so both render the same document in the same process.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from grader.reports import html_report  # noqa: E402
from solver.board import Board  # noqa: E402

MESSAGES = {
    "AC": "a legal {m}-move path to the goal (optimal)",
    "SUB": "a legal path to the goal, but it takes {m} moves; the shortest takes {o}",
    "WA": "output.txt:{l}: step {s} (boards on lines {a} and {l}): not a legal move; the blank moved from row 2, "
          "column 3 to row 1, column 1",
    "PE": "output.txt:1: expected 'Minimum number of moves = K' on the first line, found 'Solving...'",
    "TLE": "no answer within the 10 s time limit (the program was still running and was stopped)",
    "MLE": "ran out of memory: the 1024 MB limit was reached after 7.2 s",
    "RTE": "the program crashed: java.lang.NullPointerException at Solver.solve(Solver.java:41)",
    "CE": "Solver.java:12: error: cannot find symbol\n  symbol: class PriorityQue\n  location: class Solver",
    "NO": "the program exited normally but wrote nothing to output.txt",
}


def _walk(board: Board, length: int, rng: random.Random) -> list[list[int]]:
    path, current = [list(board.tiles)], board
    for _ in range(length):
        current = rng.choice(list(current.neighbors()))
        path.append(list(current.tiles))
    return path


def synthetic_results(students: int, seed: int = 1) -> dict:
    """A results.json document for ``students`` synthetic submissions on the cmpe160 cases."""
    rng = random.Random(seed)
    manifest = json.loads((REPO / "testcases" / "cmpe160" / "manifest.json").read_text(encoding="utf-8"))
    cases = []
    for case in manifest["cases"]:
        text = (REPO / "testcases" / "cmpe160" / case["input"]).read_text(encoding="utf-8").split()
        n = case["n"]
        tiles = [int(t) for t in text[-n * n:]]
        cases.append({"id": case["id"], "points": case["points"], "n": n, "solvable": case["solvable"],
                      "optimal_moves": case.get("optimal_moves"), "visibility": case["visibility"], "board": tiles})
    submissions = []
    for index in range(students):
        skill = rng.random()
        rows = []
        for case in cases:
            board = Board.from_tiles(case["board"])
            roll = rng.random()
            verdict = ("AC" if roll < 0.55 + 0.4 * skill else "SUB" if roll < 0.7 + 0.25 * skill else
                       rng.choice(["WA", "WA", "PE", "TLE", "TLE", "MLE", "RTE", "NO"]))
            if not case["solvable"] and verdict == "SUB":
                verdict = "AC"
            optimal = case["optimal_moves"] or 0
            path = None
            if verdict in ("AC", "SUB") and case["solvable"]:
                path = _walk(board, optimal + (0 if verdict == "AC" else rng.randint(2, 30)), rng)
            elif verdict == "WA":
                path = _walk(board, max(optimal, 5), rng)
                path[len(path) // 2] = list(reversed(path[len(path) // 2]))  # an illegal jump
                if rng.random() < 0.1:
                    path = _walk(board, 1999, rng)  # a runaway path
            moves = len(path) - 1 if path else None
            message = MESSAGES[verdict].format(m=moves, o=optimal, l=rng.randint(10, 90), s=rng.randint(1, 20),
                                               a=rng.randint(2, 9))
            points = case["points"] if verdict == "AC" else case["points"] * 0.5 if verdict == "SUB" else 0
            rows.append({"case": case["id"], "verdict": verdict, "points": points, "max_points": case["points"],
                         "message": message, "seconds": round(rng.random() * 3, 3), "visibility": case["visibility"],
                         "cpu_seconds": None, "exit_code": 0, "signal": None, "moves": moves,
                         "optimal_moves": case["optimal_moves"], "solvable": case["solvable"], "problems": [],
                         "notes": [], "path": path, "stderr": ""})
        score = sum(r["points"] for r in rows)
        submissions.append({"id": f"student-{index:03d}-{rng.randint(1000, 9999)}", "score": score,
                            "max_score": len(cases), "verdict": None, "counts": {}, "complete": True,
                            "language": "java", "source": "", "build": {"ok": True}, "cases": rows})
    return {"format_version": 1, "testset": "cmpe160", "testset_path": "", "interrupted": False, "strict": False,
            "isolation": [], "assignment": {}, "cases": cases, "max_score": len(cases), "submissions": submissions}


def baseline_module(rev: str):
    """The report module, its API panel and its template as they were at ``rev``, importable beside the current
    ones (bench/report_scale.py loads them)."""
    from report_scale import baseline_module as load

    return load(rev, Path(tempfile.mkdtemp(prefix="html-report-baseline-")) / "baseline")


def measure(module, document: dict, repeat: int) -> tuple[float, int]:
    best, size = float("inf"), 0
    for _ in range(repeat):
        started = time.perf_counter()
        page = module.render(document)
        best = min(best, time.perf_counter() - started)
        size = len(page.encode("utf-8"))
    return best, size


def measure_read(document: dict) -> tuple[float, float, int]:
    """Seconds to read results.json back with its schema check: jsonschema alone (as the baseline
    did) and this checkout's :func:`read_results`; and the file's size."""
    from grader.model.schemacheck import schema_problems
    from grader.reports.json_results import read_results

    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp) / "results.json"
        path.write_text(json.dumps(document, indent=2), encoding="utf-8")
        started = time.perf_counter()
        assert schema_problems(json.loads(path.read_text(encoding="utf-8")), "results.schema.json") == []
        old = time.perf_counter() - started
        started = time.perf_counter()
        read_results(path)
        return old, time.perf_counter() - started, path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=280)
    parser.add_argument("--baseline", default="e846651", help="git revision of the baseline (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--read", action="store_true", help="also time reading results.json back (a minute or so)")
    args = parser.parse_args()
    from grader.reports.json_results import results_from_json

    document = synthetic_results(args.students)
    old = baseline_module(args.baseline)
    rows = [("baseline " + args.baseline, *measure(old, document, args.repeat)),
            ("this checkout", *measure(html_report, results_from_json(document), args.repeat))]  # typed results
    print(f"{args.students} students x {len(document['cases'])} cases (best of {args.repeat})")
    print(f"{'':<22}{'seconds':>10}{'bytes':>14}")
    for name, seconds, size in rows:
        print(f"{name:<22}{seconds:>10.2f}{size:>14,}")
    print(f"{'ratio (new/old)':<22}{rows[1][1] / rows[0][1]:>10.2f}{rows[1][2] / rows[0][2]:>14.2f}")
    if args.read:
        old, new, size = measure_read(document)
        print(f"reading results.json ({size:,} bytes) with its schema check: jsonschema {old:.2f} s, "
              f"this checkout {new:.2f} s (ratio {new / old:.2f})")


if __name__ == "__main__":
    main()
