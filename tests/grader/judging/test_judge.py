"""Judge precedence: TLE > MLE > RTE > the output's verdict; a stopped run's output still explains."""

from __future__ import annotations

import pytest

from grader.judging.hints import Context
from grader.judging.judge import Answer, judge, jvm_start_failure
from grader.judging.verdicts import RunFacts, Verdict, worst
from grader.judging.verify import Expected, verify
from solver.board import Board
from solver.formats import format_solution
from solver.solve import solve

BOARD = Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])
GOOD = format_solution(solve(BOARD).path).encode()
EXPECTED = Expected(BOARD, True, 2)


def facts(**kw) -> RunFacts:
    base = dict(timed_out=False, memory_exceeded=False, exit_code=0, signal=None, output_truncated=False,
                wall_seconds=0.1, limit_seconds=10, memory_mb=1024)
    return RunFacts(**{**base, **kw})


def run(output: bytes | None, stderr: bytes = b"", solvable: bool = True, **kw) -> tuple[Verdict, str]:
    verification = verify(output, EXPECTED) if output and output.strip() else None
    return judge(facts(**kw), Answer("output.txt", output, stderr), verification, Context(), solvable)


@pytest.mark.parametrize("kw, verdict", [
    ({"timed_out": True, "memory_exceeded": True, "exit_code": None, "signal": 9}, Verdict.TLE),
    ({"memory_exceeded": True, "exit_code": 1}, Verdict.MLE),
    ({"exit_code": None, "signal": 11}, Verdict.RTE),
    ({"exit_code": 3}, Verdict.RTE),
    ({"output_truncated": True}, Verdict.RTE),
    ({}, Verdict.AC),
])
def test_precedence(kw: dict, verdict: Verdict) -> None:
    assert run(GOOD, **kw)[0] is verdict


def test_crash_after_a_correct_answer_is_still_a_crash_and_says_so() -> None:
    verdict, message = run(GOOD, b'Exception in thread "main" java.lang.IllegalStateException: bye\n', exit_code=1)
    assert verdict is Verdict.RTE
    assert "was correct" in message and "IllegalStateException" in message


def test_timeout_explains_partial_output() -> None:
    verdict, message = run(GOOD[:60], timed_out=True, exit_code=None, signal=9)
    assert verdict is Verdict.TLE and "left so far" in message and "output.txt:" in message


def test_timeout_on_unsolvable_says_to_detect_it() -> None:
    verdict, message = run(None, solvable=False, timed_out=True, exit_code=None, signal=9)
    assert verdict is Verdict.TLE and "inversion-parity" in message


def test_missing_and_empty_output_are_no_output() -> None:
    assert run(None) == (Verdict.NO, "output.txt was not created (the input is the file 'input.txt' in the "
                                     "working folder; the answer goes to output.txt)")
    verdict, message = run(b"  \n")
    assert verdict is Verdict.NO and "nothing was written to output.txt" in message


def test_jvm_that_cannot_start_is_a_judge_error() -> None:
    fault = jvm_start_failure(b'[warning][os,thread] Failed to start thread "Unknown thread"', b"", 256)
    assert fault is not None and "out of processes or threads" in fault and "256 MB" in fault
    heap = jvm_start_failure(b"", b"Error occurred during initialization of VM\nCould not reserve enough space", 256)
    assert heap is not None and "raise [limits] memory_mb" in heap
    verdict, _ = judge(facts(exit_code=1), Answer("output.txt", None), None, Context(), True, fault)
    assert verdict is Verdict.JE
    assert jvm_start_failure(b"", b'Exception in thread "main" java.lang.NullPointerException', 256) is None


def test_worst_verdict_orders_by_severity() -> None:
    assert worst([Verdict.AC, Verdict.SUB, Verdict.WA]) is Verdict.WA
    assert worst([Verdict.WA, Verdict.TLE, Verdict.PE]) is Verdict.TLE
    assert worst([]) is None


@pytest.mark.parametrize("stderr", [b'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
                                    b"MemoryError"])
def test_a_refuted_out_of_memory_claim_gives_no_memory_hint(stderr: bytes) -> None:
    # A program that prints the out-of-memory text but was measured well under its limit stays RTE, and its
    # feedback must not also tell it that it ran out of heap (the grader's note says it did not).
    _, believed = run(None, stderr, exit_code=1)
    refuted, message = run(None, stderr, exit_code=1, memory_claim_refuted=True)
    assert "out of" in believed
    assert refuted is Verdict.RTE and "ran out of" not in message and "stderr:" in message
