"""What the judge and the run loop share about a test's outcome: its result, a student's text made safe, a run's fate.

Nothing here reads a worker's output as a verdict: the judge (:mod:`grader.apitests.judge`) decides,
and :func:`clean` bounds any text of the student's that ends up in a message.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.judging.hints import tail
from grader.sandbox import runner

MAX_MESSAGE = 1500


@dataclass(frozen=True)
class Reported:
    """One test's result as the judge decided it."""

    name: str
    passed: bool
    message: str


def clean(message: str) -> str:
    """At most :data:`MAX_MESSAGE` characters, without control characters other than newlines."""
    text = "".join(ch if ch == "\n" or (ch.isprintable() and ch not in "\x1b") else "?" for ch in message)
    return text[:MAX_MESSAGE]


STDERR_LINES = 8
"""How many of a worker run's last stderr lines a test's message keeps."""


def fate(outcome: runner.Outcome, seconds: float) -> str:
    """Why a worker run ended in the middle of a test, for that test's message."""
    if outcome.timed_out:
        why = f"the run timed out ({seconds:.0f} s) during this test"
    elif outcome.memory_exceeded:
        why = "the run ran out of memory during this test"
    elif outcome.signal is not None:
        why = f"the run was killed by signal {outcome.signal} during this test"
    else:
        why = f"the run ended (exit code {outcome.exit_code}) during this test: did the code call exit()?"
    stderr = tail(outcome.stderr, STDERR_LINES)
    return why + (f"\nstderr:\n{stderr}" if stderr.strip() else "")
