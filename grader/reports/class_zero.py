"""A whole class at zero: the set-up's fault far more often than the students'. Said, with the evidence, not
passed over with exit 0.

The checks before grading refuse the set-ups known not to work (a missing library, a file name no student
opens, a folder that is not a class). Whatever slips past them (a run command, an interpreter, a time limit in
the wrong unit) shows here: when every one of three or more submissions scored 0, ``grade`` still writes every
result, then names the commonest failure (the error line most submissions printed, else the commonest
message) and exits with :data:`EXIT_CODE`, so a script or a TA's eye does not take a class of zeros for grades.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from grader.model.results import CaseResult, SubmissionResult
from grader.model.verdicts import Verdict

EXIT_CODE = 11
_ERROR = re.compile(r"Error|Exception|error:|No such file|not found|denied", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
MIN_SUBMISSIONS = 3
"""Below this a class of zeros may well be the students' own (one student checking their work)."""


def class_at_zero(submissions: Iterable[SubmissionResult]) -> str | None:
    """A message when every submission (at least :data:`MIN_SUBMISSIONS`) scored 0, else None."""
    count = 0
    verdicts: Counter[str] = Counter()
    lines: Counter[tuple[str, str]] = Counter()
    first_seen: dict[tuple[str, str], tuple[str, str]] = {}  # a line's shape -> the first submission and line
    for submission in submissions:
        if submission.score > 0 or not submission.cases:
            return None
        count += 1
        verdicts.update(case.verdict.value for case in submission.cases)
        keys = set()
        for verdict, line in _evidence(submission):
            key = (verdict, _NUMBER.sub("#", line))  # "used 0.13 s" and "used 0.12 s" are one failure
            first_seen.setdefault(key, (submission.id, line))
            keys.add(key)
        lines.update(keys)  # once per submission
    if count < MIN_SUBMISSIONS:
        return None
    shown = ", ".join(f"{verdict} {n}" for verdict, n in verdicts.most_common())
    text = (f"every one of the {count} submissions scored 0 (cases: {shown}). When a whole class fails, the cause "
            "is usually the set-up, not the students.")
    if lines:
        (verdict, shape), users = lines.most_common(1)[0]
        example, line = first_seen[(verdict, shape)]
        text += f" The commonest failure, {verdict} in {users} of {count} submissions (e.g. {example}): {line}"
    return (text + ". Check assignment.toml against the handout (io, input_file, output_file, the run command, "
            "the interpreter, the limits) and `grade doctor`, then grade again; the results are written")


def _evidence(submission: SubmissionResult) -> Iterable[tuple[str, str]]:
    """The failure lines of a submission: its failed build's first message line, else each run's error lines."""
    if not submission.build.ok and submission.build.message:  # no case ran: the build says why
        yield (submission.build.verdict or Verdict.CE).value, _first_line(submission.build.message)
        return
    for case in submission.cases:
        yield from _case_lines(case)


def _case_lines(case: CaseResult) -> Iterable[tuple[str, str]]:
    """The lines of a run's stderr that state an error (not a traceback's frames), else its message's first."""
    lines = [line.strip() for line in case.stderr.splitlines()
             if line.strip() and not line.lstrip().startswith(("at ", "File ", "...", "Traceback "))]
    stated = [line for line in lines if _ERROR.search(line)]
    for line in stated[:2] or lines[-1:] or [_first_line(case.message)]:
        yield case.verdict.value, line[:300]


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")[:300]
