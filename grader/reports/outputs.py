"""Every file of a results folder, written by one function for a grading run and ``grade merge`` alike.

``results.json`` (:mod:`grader.reports.json_results`), ``grades.csv``
(:mod:`grader.reports.csv_grades`), one feedback file per submission
(:mod:`grader.reports.feedback`), ``report.html`` (:mod:`grader.reports.html_report`) and one
JUnit XML file per submission under ``junit/`` (:mod:`grader.reports.junit`). The HTML and JUnit
files are rendered from the results.json document, so a merged report is written by exactly
the same code as a single run's.
"""

from __future__ import annotations

from pathlib import Path

from grader.errors import OutputDirError
from grader.model.results import GradingResults
from grader.reports.csv_grades import write_csv
from grader.reports.feedback import write_feedback
from grader.reports.html_report import write_report
from grader.reports.json_results import write_json
from grader.reports.junit import write_junit
from solver.errors import OutputError


def write_reports(results: GradingResults, out_dir: Path, pretty: bool = False) -> None:
    """Write every report of ``results`` into ``out_dir``, each file atomically.

    ``results.json`` is compact unless ``pretty`` (indented, 5x larger; both read back the same).
    Raises :class:`~grader.errors.OutputDirError` when the folder cannot be created or written.
    """
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputDirError(f"{out_dir}: cannot create the results folder: {exc.strerror or exc}") from None
    try:
        write_json(results, out_dir / "results.json", pretty=pretty)
        write_csv(results, out_dir / "grades.csv")
        write_feedback(results, out_dir / "feedback")
        write_report(results, out_dir / "report.html")
        write_junit(results, out_dir)
    except OutputError as exc:  # write_atomic's failure: the folder, not the data, is at fault
        raise OutputDirError(str(exc)) from None
    except OSError as exc:
        raise OutputDirError(f"{out_dir}: cannot write the reports: {exc.strerror or exc}") from None
