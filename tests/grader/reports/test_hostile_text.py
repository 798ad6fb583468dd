"""Every writer gets the same hostile ids, names and messages (tests/grader/reports/hostile_text.py), and each
output stays well-formed for its kind: JSON and XML parse, CSV cells are inert, terminal text carries no raw
control character, HTML gains no element or attribute, a Markdown table keeps its columns."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli import main
from grader.integrations.classroom import classroom_json, markdown_summary
from grader.integrations.gradescope import gradescope_results
from grader.integrations.lms import LAYOUTS, export_grades
from grader.judging.verdicts import Verdict
from grader.model.apiresult import ApiResult
from grader.model.results import CaseResult, GradingResults, SubmissionResult
from grader.reports import csv_grades, feedback, html_report, junit, table
from grader.reports.escaping import FORMULA_STARTS, json_text
from grader.reports.json_results import read_results, results_from_json, results_text
from tests.grader.reports.hostile_text import HOSTILE

CASES = tuple({"id": cid, "points": 1.0, "n": 2, "solvable": True, "optimal_moves": 1, "visibility": "visible",
               "board": [1, 2, 0, 3]} for cid in ("2x2-a", "2x2-b"))
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def hostile_results(text: str, count: int = 2) -> GradingResults:
    """A class whose ids, case messages, notes and API messages are ``text`` (ids made unique)."""
    def case(cid: str, verdict: Verdict) -> CaseResult:
        return CaseResult(case=cid, verdict=verdict, points=float(verdict is Verdict.AC), max_points=1.0,
                          message=text, seconds=0.1, visibility="visible", notes=(text,),
                          path=((1, 2, 0, 3), (1, 2, 3, 0)))
    return GradingResults(
        testset="demo", testset_path="t", assignment={"io": "files", "name": "demo"}, cases=CASES,
        submissions=tuple(SubmissionResult(
            f"{text}{k}", "python", {"ok": True, "message": text},
            (case("2x2-a", Verdict.AC), case("2x2-b", Verdict.WA)), max_score=2.0,
            api=(ApiResult(name="board.equals", group="correctness", title=text, passed=False, points=0.0,
                           max_points=1.0, message=text),)) for k in range(count)))


def _inert_cells(text: str) -> None:
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS), cell
            assert not RAW_CONTROL.search(cell), cell


def _terminal_clean(text: str) -> None:
    assert not RAW_CONTROL.search(text), RAW_CONTROL.search(text)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]


def _elements(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    return parser


BENIGN_PAGE = _elements(html_report.render(hostile_results("plain")))


def check_json(text: str) -> None:
    results = hostile_results(text)
    assert json.loads(results_text(results)) == json.loads(json_text(results.to_json()))


def check_csv(text: str) -> None:
    _inert_cells(csv_grades.csv_text(hostile_results(text)))


def check_junit(text: str) -> None:
    for submission in hostile_results(text).submissions:
        root = ET.fromstring(junit.junit_xml(submission).encode("utf-8"))
        assert root.find("testsuite").get("name")  # parsed, and the id is there


def check_feedback(text: str) -> None:
    results = hostile_results(text)
    for submission in results.submissions:
        _terminal_clean(feedback.feedback_text(submission, results))


def check_table(text: str) -> None:
    _terminal_clean(table.render(hostile_results(text), detail=True))


def check_html(text: str) -> None:
    page = html_report.render(hostile_results(text))
    parsed = _elements(page)
    assert (parsed.tags, parsed.handlers) == (BENIGN_PAGE.tags, [])
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S).group(1)
    assert json.loads(data)["submissions"][0]["id"] == f"{text}0"


def check_lms(text: str, tmp_path: Path) -> None:
    for lms, layout in LAYOUTS.items():
        roster = tmp_path / f"{lms}.csv"
        with roster.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["submission", *(target for target, _ in layout.identity)])
            writer.writerow([f"{text}0", *(f"{text}x" for _ in layout.identity)])
        exported = export_grades(hostile_results(text), roster, lms, assignment_name=text)
        _inert_cells(exported.text.replace("    Points Possible", "Points Possible"))


def check_export_terminal(text: str, tmp_path: Path) -> None:
    """``grade export`` lists unmatched ids on stderr: shown escaped, never raw."""
    (tmp_path / "results.json").write_text(results_text(hostile_results(text)), encoding="utf-8")
    roster = tmp_path / "roster.csv"
    # One student matches (a roster matching nobody is refused before anything is written); the other
    # hostile id matches no row and is listed on stderr.
    with roster.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["submission", "ID"], [f"{text}0", "1"], ["nobody", "2"]])
    outcome = CliRunner().invoke(main, ["export", str(tmp_path / "results.json"), "--lms", "canvas", "--roster",
                                        str(roster), "--out", str(tmp_path / "out.csv")])
    assert outcome.exit_code == 0, outcome.output
    assert "submission ids match no roster row" in outcome.stderr
    _terminal_clean(outcome.stderr.replace("\n", " "))


def check_classroom(text: str) -> None:
    result = json.loads(classroom_json(hostile_results(text, count=1)))
    summary = markdown_summary(result)
    assert "<" not in summary  # the step summary renders HTML
    rows = [line for line in summary.splitlines() if line.startswith("|")]
    assert {len(re.findall(r"(?<!\\)\|", row)) for row in rows} == {5}  # four columns on every row


def check_gradescope(text: str) -> None:
    document = gradescope_results(hostile_results(text, count=1), 1.0)
    assert json.loads(json_text(document, pretty=True)) == document


WRITERS: dict[str, Callable[..., None]] = {
    "json": check_json, "csv": check_csv, "junit": check_junit, "feedback": check_feedback, "table": check_table,
    "html": check_html, "lms": check_lms, "export-terminal": check_export_terminal, "classroom": check_classroom,
    "gradescope": check_gradescope}


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t)[1:16])
def test_every_writer_keeps_hostile_text_inert(writer: str, text: str, tmp_path: Path) -> None:
    check = WRITERS[writer]
    if "tmp_path" in check.__code__.co_varnames:
        check(text, tmp_path)
    else:
        check(text)


def test_compact_and_indented_results_read_back_alike(tmp_path: Path) -> None:
    """results.json is compact by default; an indented one (``--pretty``, or an older grader's) still loads."""
    results = hostile_results(HOSTILE[0])
    compact, pretty = tmp_path / "compact.json", tmp_path / "pretty.json"
    compact.write_text(results_text(results), encoding="utf-8")
    pretty.write_text(results_text(results, pretty=True), encoding="utf-8")
    assert compact.read_text(encoding="utf-8").count("\n") == 1
    assert len(pretty.read_bytes()) > 1.5 * len(compact.read_bytes())
    assert read_results(compact) == read_results(pretty) == results_from_json(results.to_json())


def test_an_undecodable_id_is_written_not_a_crash(tmp_path: Path) -> None:
    """A folder name that is not UTF-8 reaches Python as a lone surrogate; results.json still writes and reads."""
    results = hostile_results("bad\udcff")
    path = tmp_path / "results.json"
    path.write_text(results_text(results), encoding="utf-8")
    assert read_results(path).submissions[0].id == "bad\udcff0"
