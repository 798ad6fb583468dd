"""grades.csv: one row per submission (id, score, max_score, verdict), then one column per case.

Ids and case ids are written as spreadsheets show them and never evaluate them
(:func:`grader.reports.escaping.csv_cell`): a student named ``=HYPERLINK(...)`` is text.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from grader.reports.escaping import csv_cell
from grader.reports.results import GradingResults
from solver.fileio import write_atomic


def csv_text(results: GradingResults) -> str:
    case_ids = [case["id"] for case in results.cases]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", "score", "max_score", "verdict", "complete", *map(csv_cell, case_ids)])
    for submission in results.submissions:
        by_case = {case.case: case for case in submission.cases}
        cells = [f"{by_case[c].verdict.value} {by_case[c].points:g}" if c in by_case else "" for c in case_ids]
        verdict = submission.verdict.value if submission.verdict else ""
        writer.writerow([csv_cell(submission.id), f"{submission.score:g}", f"{submission.max_score:g}", verdict,
                         "yes" if submission.complete else "no", *cells])
    return buffer.getvalue()


def write_csv(results: GradingResults, path: Path) -> None:
    write_atomic(path, csv_text(results))
