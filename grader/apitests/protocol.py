"""Reading a harness's output: one ``@@api <nonce> {json}`` line per test, trusted no further than asked.

The harness and the student's code share a process, so its output is untrusted input: a
line counts only when it carries this run's nonce (sent on stdin, unseen by the student's
code), parses as a JSON object with a known shape, is no longer than :data:`MAX_LINE`, and
names a test that was asked for and not yet reported. Everything else is ignored, and the
caller learns which tests were left unreported (the run crashed, timed out or was cut).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from grader.judging.hints import tail
from grader.sandbox import runner

PREFIX = b"@@api "
MAX_LINE = 4096
MAX_MESSAGE = 1500


@dataclass(frozen=True)
class Reported:
    """One test's result as the harness reported it."""

    name: str
    passed: bool
    message: str


def parse_lines(stdout: bytes, nonce: str, asked: Iterable[str]) -> dict[str, Reported]:
    """The first valid report of each asked-for test, in the order they came."""
    wanted = set(asked)
    marker = PREFIX + nonce.encode("ascii") + b" "
    found: dict[str, Reported] = {}
    for raw in stdout.split(b"\n"):
        if len(raw) > MAX_LINE or not raw.startswith(marker):
            continue
        try:
            entry = json.loads(raw[len(marker):].decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            continue
        if not isinstance(entry, dict):
            continue
        name, passed, message = entry.get("name"), entry.get("passed"), entry.get("message")
        if not isinstance(name, str) or name not in wanted or name in found:
            continue
        if not isinstance(passed, bool) or not isinstance(message, str):
            continue
        found[name] = Reported(name, passed, clean(message))
    return found


def clean(message: str) -> str:
    """At most :data:`MAX_MESSAGE` characters, without control characters other than newlines."""
    text = "".join(ch if ch == "\n" or (ch.isprintable() and ch not in "\x1b") else "?" for ch in message)
    return text[:MAX_MESSAGE]


STDERR_LINES = 8
"""How many of a harness run's last stderr lines a test's message keeps."""


def fate(outcome: runner.Outcome, seconds: float) -> str:
    """Why a harness run ended in the middle of a test, for that test's message."""
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
