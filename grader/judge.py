"""One case's verdict from what the run did and what its output says.

Judge precedence: the run's own failure (TLE > MLE > RTE, see
:func:`grader.verdicts.run_verdict`) outranks the output's verdict, which comes from
:func:`grader.verify.verify`. A stopped run's partial output is still verified, so the
message says what it had printed; a crash gets a hint from its stderr.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.hints import Context, explain, tail
from grader.verdicts import RunFacts, Verdict, run_verdict
from grader.verify import Verification


@dataclass(frozen=True)
class Answer:
    """Where the answer was looked for and what was there (``data`` None: the file was not created)."""

    where: str
    data: bytes | None
    stderr: bytes = b""
    elsewhere: str = ""
    """Where the program did put something, when it is not where the answer belongs."""


def judge(facts: RunFacts, answer: Answer, verification: Verification | None, ctx: Context,
          solvable: bool = True) -> tuple[Verdict, str]:
    """The verdict and a message a student can act on."""
    stopped = run_verdict(facts)
    if stopped is not None:
        verdict, message = stopped
        hint = explain(answer.stderr, ctx) if verdict is not Verdict.TLE else None
        if verdict is Verdict.TLE and not solvable:
            hint = ("this board is unsolvable: the program must detect that (e.g. by the inversion-parity rule, "
                    "or by searching the twin board) and say so instead of searching forever")
        parts = [message + (f": {hint}" if hint else "")]
        if verification is not None and verification.verdict is not Verdict.NO:
            if verification.verdict in (Verdict.AC, Verdict.SUB):
                parts.append(f"(the {answer.where} it left was correct: {verification.summary})")
            else:
                parts.append(f"(the {answer.where} it left so far: {verification.message})")
        if verdict is not Verdict.TLE and answer.stderr.strip():
            parts.append("stderr ends with:\n" + tail(answer.stderr))
        return verdict, "\n".join(parts)
    if answer.data is None or verification is None or verification.verdict is Verdict.NO:
        return Verdict.NO, _no_output(answer, ctx)
    return verification.verdict, verification.message


def _no_output(answer: Answer, ctx: Context) -> str:
    if answer.data is None:
        message = f"{answer.where} was not created ({ctx.input_given}; the answer goes to {answer.where})"
    else:
        message = f"the program exited normally, but nothing was written to {answer.where}"
    if answer.elsewhere:
        message += f"; {answer.elsewhere}"
    elif answer.stderr.strip():
        message += f"; stderr ends with:\n{tail(answer.stderr)}"
    return message
