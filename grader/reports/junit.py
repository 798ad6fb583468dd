"""JUnit XML, one file per submission, for CI dashboards (GitLab, Jenkins, GitHub test reporters).

Each case, and each API test (class ``...api.<group>``), is a ``<testcase>``: ``AC`` passes,
``JE`` (a grader fault) is an ``<error>``, and every other verdict is a ``<failure>`` whose
``type`` is the verdict and whose text is the case's message. The build, when results.json records one, is a
testcase too, so a compile error shows as such rather than as every case failing for no visible reason.
A hidden case is named by its number only and says nothing but its verdict, as in the
feedback (its id may tell its answer, its message its input): the file may be shown to students
by a CI page. The TA's report.html and results.json keep everything.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from grader.model.results import GradingResults, SubmissionResult
from grader.reports.escaping import safe_name, xml_text
from solver.fileio import write_atomic

HIDDEN_MESSAGE = "(hidden case: details are not shown)"


def _testcase(suite: ET.Element, classname: str, name: str, seconds: float, verdict: str | None,
              message: str) -> ET.Element:
    """One ``<testcase>``; every text passes :func:`xml_text` (XML 1.0 forbids most control characters)."""
    element = ET.SubElement(suite, "testcase", classname=xml_text(classname), name=xml_text(name),
                            time=f"{seconds:.3f}")
    if verdict is not None:
        tag = "error" if verdict == "JE" else "failure"
        first = message.strip().splitlines()[0] if message.strip() else verdict
        problem = ET.SubElement(element, tag, type=verdict, message=xml_text(f"{verdict}: {first}"))
        problem.text = xml_text(message)
    return element


def junit_xml(submission: SubmissionResult) -> str:
    """The JUnit XML document for one submission of results.json."""
    sid = submission.id
    classname = f"npuzzle.{safe_name(sid)}"
    suite = ET.Element("testsuite", name=xml_text(sid))
    failures = errors = 0
    total_seconds = 0.0
    build = submission.build
    verdict = None if build.ok else (build.verdict.value if build.verdict else "CE")
    _testcase(suite, classname, "build", build.seconds, verdict,
              build.message + ("\n" + build.log if build.log else ""))
    failures += verdict is not None and verdict != "JE"
    errors += verdict == "JE"
    hidden = 0
    for case in submission.cases:
        verdict = case.verdict.value
        seconds = round(case.seconds, 3)  # as results.json has it
        total_seconds += seconds
        name, message = case.case, case.message
        if case.visibility != "visible":  # as in the feedback: a CI page may be a student's
            hidden += 1
            name, message = f"hidden case {hidden}", HIDDEN_MESSAGE
        element = _testcase(suite, classname, name, seconds, None if verdict == "AC" else verdict, message)
        ET.SubElement(ET.SubElement(element, "properties"), "property", name="points",
                      value=f"{case.points}/{case.max_points}")
        failures += verdict not in ("AC", "JE")
        errors += verdict == "JE"
    for test in submission.api:  # the API tests (grader/apitests): a failure is the student's
        element = _testcase(suite, f"{classname}.api.{test.group}", test.name, 0.0,
                            None if test.passed else "FAIL", test.message)
        ET.SubElement(ET.SubElement(element, "properties"), "property", name="points",
                      value=f"{test.points}/{test.max_points}")
        failures += not test.passed
    tests, time_text = str(len(suite.findall("testcase"))), f"{total_seconds:.3f}"
    suite.set("tests", tests)
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", "0")
    suite.set("time", time_text)
    properties = ET.Element("properties")
    ET.SubElement(properties, "property", name="score", value=f"{submission.score}/{submission.max_score}")
    suite.insert(0, properties)
    root = ET.Element("testsuites", name="npuzzle-grader", tests=tests, failures=str(failures),
                      errors=str(errors), time=time_text)
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def junit_file_name(submission_id: str) -> str:
    """A file name safe on every OS for a submission id, never shared with another id."""
    return f"{safe_name(submission_id)}.xml"


def write_junit(results: GradingResults, out_dir: Path) -> list[Path]:
    """``out_dir/junit/<id>.xml`` for every submission; returns the paths written."""
    folder = Path(out_dir) / "junit"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for submission in results.submissions:  # one pass: a large class's are read back one at a time
        path = folder / junit_file_name(submission.id)
        write_atomic(path, junit_xml(submission))
        written.append(path)
    wanted = {path.name for path in written}
    for stale in folder.glob("*.xml"):  # from an earlier run: the folder mirrors results.json
        if stale.name not in wanted:
            stale.unlink()
    return written
