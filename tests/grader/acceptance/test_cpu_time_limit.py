"""TLE is judged on CPU time: a correct program beside CPU hogs is not TLE, and a run near its limit is run again.

The load test pins this process (the grader's runs inherit it) and two busy loops to one CPU, so the graded
program gets about a third of it: 0.8 s of CPU take about 2.4 s of wall time, over the 1.5 s limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.model.schemacheck import schema_problems
from grader.pipeline import grade
from grader.sandbox import runner
from grader.sandbox.limits import Outcome
from solver.formats import format_solution, parse_puzzle
from solver.solve import solve
from tests.support import REPO

DATA = REPO / "tests" / "grader" / "data"
CASE = "3x3-d3"

BUSY_CORRECT = '''"""A correct solver that also computes for {busy} s of CPU (as a slow but correct search would)."""
import time
from collections import deque

tokens = open("input.txt").read().split()
n = int(tokens[0])
start = tuple(int(t) for t in tokens[1:1 + n * n])
goal = tuple(list(range(1, n * n)) + [0])
previous = {{start: None}}
queue = deque([start])
while goal not in previous:
    board = queue.popleft()
    blank = board.index(0)
    for step in (-n, n, -1, 1):
        other = blank + step
        if other < 0 or other >= n * n or (step in (-1, 1) and other // n != blank // n):
            continue
        cells = list(board)
        cells[blank], cells[other] = cells[other], 0
        following = tuple(cells)
        if following not in previous:
            previous[following] = board
            queue.append(following)
path = [goal]
while previous[path[-1]] is not None:
    path.append(previous[path[-1]])
path.reverse()
while time.process_time() < {busy}:
    pass
with open("output.txt", "w") as out:
    out.write("Minimum number of moves = %d\\n" % (len(path) - 1))
    for board in path:
        out.write("%d\\n" % n)
        for row in range(n):
            out.write(" ".join(str(t) for t in board[row * n:row * n + n]) + "\\n")
        out.write("\\n")
'''


@pytest.mark.slow
def test_correct_program_beside_two_cpu_hogs_is_not_tle(tmp_path: Path) -> None:
    submissions = tmp_path / "subs" / "busy-but-correct"
    submissions.mkdir(parents=True)
    (submissions / "main.py").write_text(BUSY_CORRECT.format(busy=0.8))
    # A generous wall cap: other work on a shared test machine must not turn this into a wall-clock test.
    config = tmp_path / "assignment.toml"
    config.write_text('io = "files"\n[limits]\nwall_cap_factor = 20\n')
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(everywhere)})
    # Each in its own session, as the graded run is: with autogroup scheduling a session shares the CPU as one.
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(2)]
    try:
        [submission] = grade(tmp_path / "subs", DATA / "testset", None, cases=[CASE], time_limit=1.5,
                             assignment_path=config).submissions
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, everywhere)
    [case] = submission.cases
    assert case.verdict.value == "AC", case.message
    assert case.cpu_seconds is not None and case.cpu_seconds < 1.5
    assert case.seconds > 1.5  # over the limit on the wall clock: judged by it, this correct program was TLE


def answer_for(case_id: str) -> bytes:
    board = parse_puzzle((DATA / "testset" / "cases" / f"{case_id}.txt").read_bytes())
    return format_solution(solve(board).path).encode()


def scripted(monkeypatch: pytest.MonkeyPatch, outcomes: list[tuple]) -> list[runner.Limits]:
    """Runs that take the given (cpu, wall, stopped[, seconds waiting for a CPU]) times and print the right answer;
    returns their limits. Without the fourth, the sandbox did not measure waiting."""
    seen: list[runner.Limits] = []

    def run_command(argv, workdir, limits, **kwargs) -> Outcome:
        cpu, wall, stopped, *waited = outcomes[len(seen)]
        seen.append(limits)
        return Outcome(exit_code=None if stopped else 0, signal=9 if stopped else None, timed_out=stopped,
                       memory_exceeded=False, wall_seconds=wall, cpu_seconds=cpu,
                       stdout=b"" if stopped else answer_for(CASE), stderr=b"", stdout_truncated=False,
                       stderr_truncated=False, cpu_wait_seconds=waited[0] if waited else None)

    monkeypatch.setattr(runner, "run_command", run_command)
    return seen


def grade_scripted(tmp_path: Path, out: Path | None = None):
    student = tmp_path / "subs" / "student"
    student.mkdir(parents=True)
    (student / "solve.sh").write_text("true\n")
    config = tmp_path / "assignment.toml"
    config.write_text('language = "command"\nio = "argv"\n[command]\nrun = ["/bin/sh", "solve.sh", "{input}"]\n')
    [submission] = grade(tmp_path / "subs", DATA / "testset", out, cases=[CASE], assignment_path=config).submissions
    return submission.cases[0]


@pytest.mark.parametrize("times, verdict, runs, fragments", [
    ([(5.4, 5.6, False), (4.9, 5.0, False)], "AC", 2, []),
    ([(5.4, 5.6, False), (5.3, 5.5, False)], "TLE", 2, ["used 5.30 s of CPU time, over the time limit of 5 s",
                                                        "run twice: the first run used 5.40 s of CPU"]),
    ([(3.0, 15.0, True), (2.0, 4.0, False)], "AC", 2, []),
    ([(6.0, 6.1, True)], "TLE", 1, ["used 6.00 s of CPU time, over the time limit of 5 s"]),
    ([(0.05, 15.0, True)], "TLE", 1, ["having used only 0.05 s of CPU", "waiting"]),
    ([(4.9, 14.0, False)], "AC", 1, []),
    # waiting for a CPU measured: no second run, ever
    ([(5.4, 5.6, False, 0.0)], "TLE", 1, ["used 5.40 s of CPU time, over the time limit of 5 s"]),
    ([(4.9, 60.0, False, 50.0)], "AC", 1, []),
    ([(3.0, 16.0, True, 1.0)], "TLE", 1, ["stopped after 15.0 s of running or waiting (16.0 s of wall-clock time, "
                                          "less 1.0 s spent waiting", "having used only 3.00 s of CPU"]),
], ids=["near-then-within", "near-twice", "starved-then-within", "over", "sleeper", "slow-wall-within",
        "measured-near-is-over", "measured-starved-is-within", "measured-waiter"])
def test_time_verdicts_and_the_second_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, times, verdict, runs,
                                          fragments) -> None:
    seen = scripted(monkeypatch, times)
    case = grade_scripted(tmp_path, tmp_path / "out")
    assert (case.verdict.value, case.runs, len(seen)) == (verdict, runs, len(times)), case.message
    for fragment in fragments:
        assert fragment in case.message
    # the manifest's 5 s: stopped for CPU 15% past it, by the wall clock at three times it
    assert all((limits.cpu_seconds, limits.wall_seconds) == (pytest.approx(5.75), 15.0) for limits in seen)
    stored = json.loads((tmp_path / "out" / "results.json").read_text())
    assert schema_problems(stored, "results.schema.json") == []
    assert stored["submissions"][0]["cases"][0].get("runs", 1) == runs
    feedback = (tmp_path / "out" / "feedback" / "student.txt").read_text()
    assert ("run twice: it ended near the time limit" in feedback) == (runs == 2)
    if runs == 2 and verdict == "AC":
        assert "run twice:" in case.message
