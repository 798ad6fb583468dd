"""results.json and report.html for a class of 1,000: bytes written and seconds until the page is ready in
headless Chromium, this checkout beside a baseline revision, in one interleaved run.

    python bench/report_scale.py [--results RESULTS_JSON] [--students 1000] [--baseline main] [--rounds 3]

The class is copies of a real graded result (default: the sample class under tests/grader/data, graded
here; pass ``--results`` for a larger one, e.g. examples/submissions graded on the cmpe160 set): each copy
keeps its cases, messages and printed paths, under a new id. The baseline's writer (its html_report.py,
api_views.py and templates, from git) is loaded as a module beside this checkout's; both render the same typed
results. Its results.json is the copied document as a format-1 writer wrote it (compact, every field, paths
as lists); this checkout's is what its writer makes of the same results (format 2). "Open" is navigation
start to the end of the load event (after the page's inline script has built the matrix and loaded the first
replay), best of ``--rounds``, the two pages taking turns.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.model import pathcode  # noqa: E402
from grader.reports import html_report  # noqa: E402
from grader.reports.escaping import json_text  # noqa: E402
from grader.reports.json_results import results_from_json  # noqa: E402
from grader.reports.json_results import results_text as format_2_text  # noqa: E402

FORMAT_1_FIELDS = {"visibility": "visible", "cpu_seconds": None, "exit_code": None, "signal": None, "moves": None,
                   "optimal_moves": None, "solvable": None, "problems": [], "notes": [], "path": None, "stderr": ""}
"""What a format-1 writer wrote in every case result, and format 2 leaves out when it holds this value."""


def as_format_1(document: dict[str, Any]) -> dict[str, Any]:
    """The document as a format-1 writer (main before format 2) wrote it: every field, paths as lists."""
    old = copy.deepcopy(document)
    for submission in old["submissions"]:
        for case in submission["cases"]:
            boards = pathcode.decode(case.get("path"))
            case.update({**FORMAT_1_FIELDS, **case,
                         "path": [list(board) for board in boards] if boards is not None else None})
    return {**old, "format_version": 1}


def graded_sample(folder: Path) -> Path:
    """Grade the sample class (4 submissions x 4 cases) into ``folder``; its results.json."""
    from grader.pipeline import grade

    data = REPO / "tests" / "grader" / "data" / "sample-class"
    grade(data / "submissions", data / "testset", folder, jobs=2)
    return folder / "results.json"


def scaled(document: dict[str, Any], students: int) -> dict[str, Any]:
    """``students`` copies of the document's submissions, round-robin, each under a new id."""
    originals = document["submissions"]
    copies = []
    for index in range(students):
        submission = copy.deepcopy(originals[index % len(originals)])
        submission["id"] = f"s{index:04d}-{submission['id']}"
        copies.append(submission)
    return {**document, "submissions": copies}


def baseline_module(rev: str, folder: Path):
    """The report writer as it was at ``rev`` (html_report.py, its api_views.py, its template), importable
    beside this checkout's: the baseline's api_views import is pointed at its own copy."""
    (folder / "templates").mkdir(parents=True)

    def show(path: str, needed: bool = True) -> str:  # an older rev may have no api_views.py
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=REPO, capture_output=True, text=True,
                              check=needed).stdout
    (folder / "api_views_baseline.py").write_text(show("grader/reports/api_views.py", needed=False), encoding="utf-8")
    listed = subprocess.run(["git", "ls-tree", "--name-only", f"{rev}:grader/reports/templates"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.split()
    for name in listed:  # the template and, in later revs, its own style sheet and script
        (folder / "templates" / name).write_text(show(f"grader/reports/templates/{name}"), encoding="utf-8")
    source = show("grader/reports/html_report.py").replace("from grader.reports.api_views import",
                                                           "from api_views_baseline import")
    (folder / "html_report_baseline.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("html_report_baseline", folder / "html_report_baseline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def browser(profile: Path):
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1300,900",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options,
                            service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")))


def load_seconds(driver, page: Path) -> float:
    """Seconds from navigation start to the end of the load event: the page's script is inline and synchronous
    (it builds the matrix, reads its layout and marks the body ready), so the load event ends after it."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")
    driver.get(page.as_uri())
    WebDriverWait(driver, 120, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.body && document.body.dataset.ready === 'true' && "
                                   "performance.getEntriesByType('navigation')[0].loadEventEnd > 0"))
    return driver.execute_script("return performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=None, help="a graded results.json to copy")
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--baseline", default="main", help="git revision of the old writer (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="report-scale-"))
    try:
        source = args.results or graded_sample(work / "sample")
        document = scaled(json.loads(source.read_text(encoding="utf-8")), args.students)
        old = baseline_module(args.baseline, work / "baseline")
        results = results_from_json(document)  # both writers take the typed results
        # results.json: the baseline's as a format-1 writer wrote it (compact, every field, paths as lists),
        # this checkout's as its writer writes it (format 2: paths coded, defaults left out)
        writers = {"baseline " + args.baseline: (old, json_text(as_format_1(document)) + "\n"),
                   "this checkout": (html_report, format_2_text(results))}
        pages, rows = {}, {}
        for name, (module, results_text) in writers.items():
            folder = work / name.replace(" ", "-")
            folder.mkdir()
            (folder / "results.json").write_text(results_text, encoding="utf-8")
            pages[name] = folder / "report.html"
            pages[name].write_text(module.render(results), encoding="utf-8")
            rows[name] = {"json": (folder / "results.json").stat().st_size, "html": pages[name].stat().st_size,
                          "render": float("inf"), "load": float("inf")}
        for _ in range(args.rounds):  # interleaved, before Chromium starts (it keeps painting after a load)
            for name, (module, _) in writers.items():
                started = time.perf_counter()
                module.render(results)
                rows[name]["render"] = min(rows[name]["render"], time.perf_counter() - started)
        driver = browser(work / "profile")
        try:
            for _ in range(args.rounds):  # interleaved: each round opens the old page, then the new
                for name, page in pages.items():
                    rows[name]["load"] = min(rows[name]["load"], load_seconds(driver, page))
        finally:
            driver.quit()
        print(f"{args.students} students x {len(document['cases'])} cases, copies of {source.name} "
              f"({len(json.loads(source.read_text(encoding='utf-8'))['submissions'])} graded submissions); "
              f"render and Chromium open: best of {args.rounds}, interleaved")
        print(f"{'':<18}{'results.json':>16}{'report.html':>16}{'render s':>10}{'open s':>10}")
        for name, row in rows.items():
            print(f"{name:<18}{row['json']:>16,}{row['html']:>16,}{row['render']:>10.2f}{row['load']:>10.2f}")
        old_row, new_row = rows.values()
        print(f"{'ratio (new/old)':<18}{new_row['json'] / old_row['json']:>16.2f}"
              f"{new_row['html'] / old_row['html']:>16.2f}{new_row['render'] / old_row['render']:>10.2f}"
              f"{new_row['load'] / old_row['load']:>10.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
