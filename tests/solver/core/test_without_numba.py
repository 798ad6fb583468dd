"""Without the [fast] extra (numba, numpy) the solver still answers, by its pure-Python A*, and says so."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support import REPO

BLOCKED = ("import sys\nsys.modules['numba'] = None\nsys.modules['numpy'] = None\n"
           "from solver.cli import entry\nsys.exit(entry(sys.argv[1:]))\n")
CASE = REPO / "testcases" / "cmpe160" / "cases" / "4x4-d30-34-01.txt"


def _solver(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCKED, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}, check=False)


def _optimal(case_id: str) -> int:
    manifest = json.loads((REPO / "testcases" / "cmpe160" / "manifest.json").read_text(encoding="utf-8"))
    return next(case["optimal_moves"] for case in manifest["cases"] if case["id"] == case_id)


def test_auto_falls_back_to_astar_with_a_note() -> None:
    done = _solver(str(CASE), "--stats")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"Minimum number of moves = {_optimal('4x4-d30-34-01')}"
    assert "note: numba is not installed" in done.stderr and "npuzzle-grader[fast]" in done.stderr
    assert "algorithm=astar" in done.stderr


@pytest.mark.parametrize("args, message", [
    (("-a", "pdb", str(CASE)), "the pdb algorithm needs numba and numpy, which are not installed"),
    (("-a", "idastar", str(CASE)), "the idastar algorithm needs numba and numpy, which are not installed"),
    (("tables", "--size", "4"), "this needs num"),
])
def test_compiled_only_commands_name_the_extra(args: tuple[str, ...], message: str) -> None:
    done = _solver(*args)
    assert done.returncode != 0 and message in done.stderr and "npuzzle-grader[fast]" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_3x3_needs_no_extra_and_prints_no_note() -> None:
    done = _solver(str(REPO / "testcases" / "cmpe160" / "cases" / "3x3-rand-01.txt"))
    assert done.returncode == 0 and done.stderr == ""
