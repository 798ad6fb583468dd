"""The score table on stdout: one row per submission; ``detail`` adds the submission x case matrix."""

from __future__ import annotations

from tabulate import tabulate

from grader.results import GradingResults
from grader.verdicts import SEVERITY


def summary_table(results: GradingResults) -> str:
    present = [v for v in SEVERITY if any(s.counts().get(v.value) for s in results.submissions)]
    headers = ["submission", "score", "verdict", *[v.value for v in present]]
    rows = []
    for submission in results.submissions:
        counts = submission.counts()
        verdict = submission.verdict.value if submission.verdict else "-"
        if not submission.complete:
            verdict += " (partial)"
        rows.append([submission.id, f"{submission.score:g}/{submission.max_score:g}", verdict,
                     *[counts.get(v.value, "") for v in present]])
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


def detail_table(results: GradingResults) -> str:
    case_ids = [case["id"] for case in results.cases]
    rows = []
    for submission in results.submissions:
        by_case = {case.case: case.verdict.value for case in submission.cases}
        rows.append([submission.id, *[by_case.get(c, "") for c in case_ids]])
    return tabulate(rows, headers=["submission", *case_ids], tablefmt="simple", disable_numparse=True)


def render(results: GradingResults, detail: bool = False) -> str:
    parts = [summary_table(results)]
    if detail:
        parts.append(detail_table(results))
    if results.interrupted:
        parts.append("Interrupted: the table shows only the cases that finished.")
    return "\n\n".join(parts) + "\n"
