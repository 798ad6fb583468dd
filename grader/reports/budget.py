"""A size budget per case result: nothing a program prints can make results.json or the journal large.

A case's result quotes the program (its message, problems, format notes, stderr) and keeps
the path it printed, for replays. Each is capped here, before the result is recorded in the
journal or written to any report, so one case's entry never passes :data:`CASE_BYTES` of
JSON, however much (or however oddly) the program printed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from grader.model.results import CaseResult

MESSAGE_CHARS = 8_000
STDERR_CHARS = 8_000
MAX_PROBLEMS = 20
PROBLEM_CHARS = 2_000
MAX_NOTES = 20
NOTE_CHARS = 500
PATH_BYTES = 200_000
"""A longer printed path (as JSON) is not kept for replays; the verdict and messages still say what it was."""
CASE_BYTES = 300_000
"""What one case's entry in results.json (and in the journal) can take, by the caps above."""


def cut(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, saying how much was cut.

    >>> cut("abcdef", 3)
    'abc… (3 more characters cut)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters cut)"


def _listed(items: tuple[str, ...], count: int, chars: int, what: str) -> tuple[str, ...]:
    kept = tuple(cut(item, chars) for item in items[:count])
    if len(items) > count:
        kept += (f"… and {len(items) - count:,} more {what}",)
    return kept


def _path_bytes_at_most(path: Sequence[tuple[int, ...]]) -> int:
    """An upper bound of ``len(json.dumps(path))``, without writing it: each tile with its ", " and its digits."""
    longest = max((len(board) for board in path), default=0)
    return len(path) * (longest * (len(str(max(longest - 1, 0))) + 2) + 4) + 2


def within_budget(result: CaseResult) -> CaseResult:
    """``result`` with every field a program can grow capped (``result`` itself when nothing is over)."""
    path = result.path
    notes = _listed(result.notes, MAX_NOTES, NOTE_CHARS, "notes")
    # The bound first: the path is written out as JSON only when it might be over
    if path is not None and _path_bytes_at_most(path) > PATH_BYTES \
            and len(json.dumps([list(board) for board in path])) > PATH_BYTES:
        path = None
        notes += (f"the printed path ({len(result.path or ()):,} boards) is too long to keep for replays",)
    message, stderr = cut(result.message, MESSAGE_CHARS), cut(result.stderr, STDERR_CHARS)
    problems = _listed(result.problems, MAX_PROBLEMS, PROBLEM_CHARS, "problems")
    if (message, stderr, problems, notes, path) == (result.message, result.stderr, result.problems, result.notes,
                                                    result.path):
        return result  # an ordinary result: nothing cut, so not made (and validated) again
    return dataclasses.replace(result, message=message, stderr=stderr, problems=problems, notes=notes, path=path)
