"""One case's verdict from what the run did and what its output says.

Judge precedence: the run's own failure (TLE > MLE > RTE, see
:func:`grader.judging.verdicts.run_verdict`) outranks the output's verdict, which comes from
:func:`grader.judging.verify.verify`. A stopped run's partial output is still verified, so the
message says what it had printed; a crash gets a hint from its stderr.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.judging.hints import Context, excerpt, explain
from grader.judging.verdicts import SOLVED, RunFacts, Verdict, run_verdict
from grader.judging.verify import Verification


@dataclass(frozen=True)
class Answer:
    """Where the answer was looked for and what was there (``data`` None: the file was not created)."""

    where: str
    data: bytes | None
    stderr: bytes = b""
    elsewhere: str = ""
    """Where the program did put something, when it is not where the answer belongs."""


JVM_START_FAILURES = (b"Error occurred during initialization of VM", b"Could not reserve enough space")
JVM_THREAD_FAILURES = (b'Failed to start thread "Unknown thread"', b"unable to create native thread")


def jvm_start_failure(stdout: bytes, stderr: bytes, memory_mb: int) -> str | None:
    """The JVM could not even start under the limits: the grader's setup, not the student, is at fault.

    The caller rules out a run that hit its own process limit (a student's fault) first; a
    thread that still cannot start is the machine's processes or thread stacks running out.
    """
    text = stdout + stderr
    if any(marker in text for marker in JVM_THREAD_FAILURES):
        return ("the JVM could not start its threads although the run stayed under its own process limit: "
                f"the machine is out of processes or threads, or the thread stacks do not fit in memory_mb = "
                f"{memory_mb} MB (see grade doctor)")
    if any(marker in text for marker in JVM_START_FAILURES):
        return (f"the JVM could not start under the memory limit of {memory_mb} MB (raise [limits] memory_mb "
                "in assignment.toml)")
    return None


def judge(facts: RunFacts, answer: Answer, verification: Verification | None, ctx: Context,
          solvable: bool = True, fault: str | None = None) -> tuple[Verdict, str]:
    """The verdict and a message a student can act on; ``fault`` is a grader fault found by the caller (JE)."""
    if fault is not None:
        return Verdict.JE, fault
    stopped = run_verdict(facts)
    if stopped is not None:
        verdict, message = stopped
        hint = explain(answer.stderr, ctx) if verdict is not Verdict.TLE and not facts.memory_claim_refuted else None
        if verdict is Verdict.TLE and not solvable:
            hint = ("this board is unsolvable: the program must detect that (e.g. by the inversion-parity rule, "
                    "or by searching the twin board) and say so instead of searching forever")
        parts = [message + (f": {hint}" if hint else "")]
        if verification is not None and verification.verdict is not Verdict.NO:
            if verification.verdict in (Verdict.AC, Verdict.SUB):
                parts.append(f"(the {answer.where} it left was correct: {verification.summary})")
            else:
                parts.append(f"(the {answer.where} it left so far: {verification.message(answer.where)})")
        if verdict is not Verdict.TLE and answer.stderr.strip():
            parts.append("stderr:\n" + excerpt(answer.stderr))
        return verdict, "\n".join(parts)
    if answer.data is None or verification is None or verification.verdict is Verdict.NO:
        return Verdict.NO, _no_output(answer, ctx)
    message = verification.message(answer.where)
    if answer.elsewhere and verification.verdict not in SOLVED:
        message += f"\n({answer.elsewhere})"
    return verification.verdict, message


def _no_output(answer: Answer, ctx: Context) -> str:
    if answer.data is None:
        message = f"{answer.where} was not created ({ctx.input_given}; the answer goes to {answer.where})"
    else:
        message = f"the program exited normally, but nothing was written to {answer.where}"
    if answer.elsewhere:
        message += f"; {answer.elsewhere}"
    elif answer.stderr.strip():
        message += f"; stderr:\n{excerpt(answer.stderr)}"
    return message
