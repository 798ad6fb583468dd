"""The reports every grading run (and ``grade merge``) writes beside results.json.

One entry point for the pipeline: ``report.html`` (:mod:`grader.html_report`) and one
JUnit XML file per submission under ``junit/`` (:mod:`grader.junit`). Both read the
results.json document, so a merged report is written by exactly the same code.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from grader.html_report import write_report
from grader.junit import write_junit


def write_exports(results: Mapping[str, Any], out_dir: Path) -> None:
    write_report(results, Path(out_dir) / "report.html")
    write_junit(results, Path(out_dir))
