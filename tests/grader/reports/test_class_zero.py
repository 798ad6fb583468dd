"""A class where everyone scored 0 is named with its commonest failure and exit 11, never passed over with exit 0;
a class where anyone scored, or too small a class, is not."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.model.results import BuildRecord, CaseResult, SubmissionResult
from grader.model.verdicts import Verdict
from grader.reports.class_zero import EXIT_CODE, class_at_zero

REPO = Path(__file__).resolve().parents[3]
PY_MISSING = ("Traceback (most recent call last):\n  File \"/box/solver.py\", line 3, in <module>\n"
              "FileNotFoundError: [Errno 2] No such file or directory: 'input.txt'\n")
JAVA_MISSING = ("Exception in thread \"main\" java.io.FileNotFoundException: input.txt (No such file or directory)\n"
                "\tat java.base/java.io.FileInputStream.open0(Native Method)\n\tat Solver.main(Solver.java:9)\n")


def _student(sid: str, verdict: Verdict = Verdict.RTE, stderr: str = "", points: float = 0.0,
             build_message: str = "", message: str = "it crashed") -> SubmissionResult:
    cases = tuple(CaseResult(case=f"c{n}", verdict=verdict, points=points, max_points=1.0, message=message,
                             seconds=0.1, stderr=stderr) for n in range(2))
    build = BuildRecord(ok=not build_message, message=build_message, verdict=Verdict.CE if build_message else None)
    return SubmissionResult(id=sid, language="python", build=build, cases=cases, max_score=2.0)


CASES = [
    ("a class that cannot open its input",
     [_student("a", stderr=PY_MISSING), _student("b", stderr=PY_MISSING), _student("c", stderr=JAVA_MISSING)],
     "every one of the 3 submissions scored 0 (cases: RTE 6). When a whole class fails, the cause is usually the "
     "set-up, not the students. The commonest failure, RTE in 2 of 3 submissions (e.g. a): FileNotFoundError: "
     "[Errno 2] No such file or directory: 'input.txt'"),
    ("a Java class", [_student(s, stderr=JAVA_MISSING) for s in "abc"],
     'RTE in 3 of 3 submissions (e.g. a): Exception in thread "main" java.io.FileNotFoundException: input.txt'),
    ("a class that does not compile", [_student(s, Verdict.CE, build_message="javac: package x does not exist\nmore")
                                       for s in "abcd"],
     "(cases: CE 8). When a whole class fails, the cause is usually the set-up, not the students. The commonest "
     "failure, CE in 4 of 4 submissions (e.g. a): javac: package x does not exist"),
    ("no stderr: the message", [_student(s, Verdict.TLE) for s in "abc"],
     "TLE in 3 of 3 submissions (e.g. a): it crashed"),
    ("numbers apart, one failure", [_student(s, Verdict.TLE, message=f"used 0.1{n} s of CPU time, over 0.1 s")
                                    for n, s in enumerate("abc")],
     "TLE in 3 of 3 submissions (e.g. a): used 0.10 s of CPU time, over 0.1 s"),
    ("one student scored", [_student("a", stderr=PY_MISSING), _student("b", Verdict.AC, points=1.0),
                            _student("c", stderr=PY_MISSING)], None),
    ("two students", [_student("a", stderr=PY_MISSING), _student("b", stderr=PY_MISSING)], None),
]


@pytest.mark.parametrize("what, students, message", CASES, ids=[case[0] for case in CASES])
def test_class_at_zero(what: str, students: list[SubmissionResult], message: str | None) -> None:
    found = class_at_zero(students)
    if message is None:
        assert found is None
    else:
        assert found is not None and message in found
        assert "Check assignment.toml against the handout" in found


def test_grade_exits_11_with_the_evidence_and_writes_the_results(tmp_path: Path) -> None:
    """A CMPE 160 class graded as io = "stdin": every run looks for input.txt, which is not written."""
    testset = tmp_path / "set"
    shutil.copytree(REPO / "testcases" / "cmpe160", testset)
    config = testset / "assignment.toml"
    config.write_text(config.read_text().replace('io = "files"', 'io = "stdin"'))
    for name in ("alice", "bob", "carol"):
        shutil.copytree(REPO / "examples" / "submissions" / "AC-python-correct", tmp_path / "class" / name)
    done = subprocess.run([sys.executable, "-m", "grader.cli", str(tmp_path / "class"), "--testcases", str(testset),
                           "--out", str(tmp_path / "out"), "--cases", "2x2-rand-01", "--no-progress", "-j", "2"],
                          capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == EXIT_CODE, done.stderr
    assert "every one of the 3 submissions scored 0" in done.stderr
    assert "No such file or directory: 'input.txt'" in done.stderr
    assert (tmp_path / "out" / "results.json").is_file() and (tmp_path / "out" / "grades.csv").is_file()
