"""The score table on stdout: one row per submission; ``detail`` adds the submission x case matrix.

Ids are the students' folder names: control characters and bidirectional overrides in
them are shown escaped (:func:`grader.reports.escaping.terminal_safe`), never sent raw to
the terminal.
"""

from __future__ import annotations

import textwrap

from tabulate import tabulate

from grader.judging.verdicts import SEVERITY
from grader.model.results import GradingResults
from grader.reports.api_views import api_cell
from grader.reports.escaping import terminal_safe


def summary_table(results: GradingResults) -> str:
    # One pass over the submissions: a large class's are read back one at a time (grader.journal.Submissions).
    seen = []
    for submission in results.submissions:
        verdict = submission.verdict.value if submission.verdict else "-"
        if not submission.complete:
            verdict += " (partial)"
        seen.append((terminal_safe(submission.id), f"{submission.score:g}/{submission.max_score:g}", verdict,
                     submission.counts, submission.api))
    present = [v for v in SEVERITY if any(counts.get(v.value) for *_, counts, _ in seen)]
    with_api = any(api for *_, api in seen)
    headers = ["submission", "score", "verdict", *[v.value for v in present], *(["api"] if with_api else [])]
    rows = [[sid, score, verdict, *[counts.get(v.value, "") for v in present], *([api_cell(api)] if with_api else [])]
            for sid, score, verdict, counts, api in seen]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


WIDE = 8
"""Beyond this many cases the matrix shows one letter per case, so a row fits a terminal."""

LETTERS = {"AC": "A", "SUB": "S", "WA": "W", "PE": "P", "TLE": "T", "MLE": "M", "RTE": "R", "CE": "C", "NO": "N",
           "JE": "J"}


def detail_table(results: GradingResults) -> str:
    case_ids = [terminal_safe(case.id) for case in results.cases]
    if len(case_ids) > WIDE:
        return _letter_matrix(results, case_ids)
    rows = []
    for submission in results.submissions:
        by_case = {terminal_safe(case.case): case.verdict.value for case in submission.cases}
        rows.append([terminal_safe(submission.id), *[by_case.get(c, "") for c in case_ids]])
    return tabulate(rows, headers=["submission", *case_ids], tablefmt="simple", disable_numparse=True)


def _letter_matrix(results: GradingResults, case_ids: list[str]) -> str:
    """One letter per case, in groups of ten, with a numbered key of the cases below."""
    def strip(cells: list[str]) -> str:
        return " ".join("".join(cells[i:i + 10]) for i in range(0, len(cells), 10))

    rows = []
    for submission in results.submissions:
        by_case = {terminal_safe(case.case): LETTERS[case.verdict.value] for case in submission.cases}
        rows.append([terminal_safe(submission.id), strip([by_case.get(c, ".") for c in case_ids])])
    ruler = strip([str((i + 1) % 10) for i in range(len(case_ids))])
    table = tabulate(rows, headers=["submission", ruler], tablefmt="simple", disable_numparse=True)
    key = ", ".join(f"{letter}={verdict}" for verdict, letter in LETTERS.items())
    cases = textwrap.fill("  ".join(f"{i + 1}:{c}" for i, c in enumerate(case_ids)), width=100,
                          initial_indent="Cases: ", subsequent_indent="       ", break_on_hyphens=False)
    return f"{table}\n\nLetters: {key}, .=not run\n{cases}"


def render(results: GradingResults, detail: bool = False) -> str:
    parts = [summary_table(results)]
    if detail:
        parts.append(detail_table(results))
    if results.interrupted:
        parts.append("Interrupted: the table shows only the cases that finished.")
    return "\n\n".join(parts) + "\n"
