"""JUnit XML per submission: one testcase per case plus the build; verdicts as failures/errors."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest

from grader.model.verdicts import Verdict
from grader.reports.junit import junit_xml, write_junit
from tests.grader.sampleclass import Graded


def _suite(graded: Graded, sid: str) -> ET.Element:
    root = ET.parse(graded.out_dir / "junit" / f"{sid}.xml").getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    return suite


@pytest.mark.parametrize("sid, failures, failed_types", [
    ("correct", 0, {}),
    ("suboptimal", 2, {"easy-3x3": "SUB", "hidden case 1": "SUB"}),
    ("illegal-move", 3, {"small-2x2": "WA", "easy-3x3": "WA", "hidden case 1": "WA"}),
    ("compile-error", 5, {"build": "CE", "small-2x2": "CE", "easy-3x3": "CE", "hidden case 1": "CE",
                          "hidden case 2": "CE"}),
])
def test_each_submission_file_lists_its_cases(graded: Graded, sid: str, failures: int,
                                              failed_types: dict[str, str]) -> None:
    suite = _suite(graded, sid)
    names = [case.get("name") for case in suite.findall("testcase")]
    # mid-3x3 and unsolvable-3x3 are hidden: an id may tell the answer, so they are shown by number only
    assert names == ["build", "small-2x2", "easy-3x3", "hidden case 1", "hidden case 2"]
    assert suite.get("tests") == "5" and suite.get("failures") == str(failures) and suite.get("errors") == "0"
    found = {case.get("name"): case.find("failure").get("type") for case in suite.findall("testcase")
             if case.find("failure") is not None}
    assert found == failed_types


def test_failure_text_is_the_students_message(graded: Graded) -> None:
    case = next(c for c in _suite(graded, "illegal-move").findall("testcase") if c.get("name") == "easy-3x3")
    failure = case.find("failure")
    assert failure.get("message").startswith("WA: output.txt:7: step 1")
    assert "not a legal move" in failure.text


def test_a_hidden_case_says_its_verdict_and_nothing_else(graded: Graded) -> None:
    text = (graded.out_dir / "junit" / "compile-error.xml").read_text()
    hidden = next(c for c in _suite(graded, "compile-error").findall("testcase") if c.get("name") == "hidden case 2")
    assert hidden.find("failure").text == "(hidden case: details are not shown)"
    assert "unsolvable-3x3" not in text and "mid-3x3" not in text


def test_judge_errors_are_errors_and_control_characters_survive(graded: Graded) -> None:
    submission = graded.results.submissions[1]
    submission = dataclasses.replace(submission, cases=(dataclasses.replace(
        submission.cases[0], verdict=Verdict.JE, message="runner broke \x00\x1b[31m here"),))
    root = ET.fromstring(junit_xml(submission).split("\n", 1)[1])
    suite = root.find("testsuite")
    assert suite.get("errors") == "1"
    # Shown as visible escapes (escaping.xml_text): the TA sees what was printed.
    assert suite.find("testcase/error").text == "runner broke \\x00\\x1b[31m here"


def test_stale_files_from_an_earlier_run_are_removed(graded: Graded, tmp_path) -> None:
    (tmp_path / "junit").mkdir()
    (tmp_path / "junit" / "gone-student.xml").write_text("<testsuites/>")
    written = write_junit(graded.results, tmp_path)
    assert sorted(p.name for p in (tmp_path / "junit").iterdir()) == sorted(p.name for p in written)
    assert len(written) == 4
