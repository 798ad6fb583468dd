"""grades.csv: one row per submission (id, score, max_score, verdict), then one column per case and per API test.

Ids, case ids and test names are written as spreadsheets show them and never evaluate them
(:func:`grader.reports.escaping.csv_cell`): a student named ``=HYPERLINK(...)`` is text.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from grader.model.results import GradingResults
from grader.reports.escaping import csv_cell
from solver.fileio import write_atomic


def csv_text(results: GradingResults) -> str:
    case_ids = [case.id for case in results.cases]
    # One pass over the submissions (a large class's are read back one at a time): the API columns are
    # known once every submission has been seen.
    seen = []
    for submission in results.submissions:
        by_case = {case.case: case for case in submission.cases}
        cells = [f"{by_case[c].verdict.value} {by_case[c].points:g}" if c in by_case else "" for c in case_ids]
        verdict = submission.verdict.value if submission.verdict else ""
        seen.append(([csv_cell(submission.id), f"{submission.score:g}", f"{submission.max_score:g}", verdict,
                      "yes" if submission.complete else "no", *cells], submission.api))
    api_names = list(dict.fromkeys(test.name for _, api in seen for test in api))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", "score", "max_score", "verdict", "complete", *map(csv_cell, case_ids),
                     *map(csv_cell, api_names)])
    for row, api in seen:
        by_test = {test.name: test for test in api}
        writer.writerow([*row, *(f"{'pass' if by_test[n].passed else 'fail'} {by_test[n].points:.4g}"
                                 if n in by_test else "" for n in api_names)])
    return buffer.getvalue()


def write_csv(results: GradingResults, path: Path) -> None:
    write_atomic(path, csv_text(results))
