"""A TA's setup that cannot work is refused before grading, naming the fix; after the fix the class grades.

The class is Princeton's: most students import edu.princeton.cs.algs4. Without the library in the assignment
every one of them would be a compile error; the grader refuses instead (exit 10). One student's import in a
class that otherwise does not use the library stays that student's compile error.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.cli import entry
from grader.pipeline import grade
from tests.grader.acceptance.test_princeton_class import CLASS, DATA, build_jar
from tests.support import REPO

ALGS4_USERS = ["AC-packaged-algs4", "AC-mixed-editions", "AC-campus-wording"]
PLAIN_JAVA = REPO / "examples" / "submissions" / "AC-java-princeton-padded"


def _class(root: Path, names: list[str], plain: int = 0) -> Path:
    subs = root / "submissions"
    for name in names:
        shutil.copytree(CLASS / "submissions" / name, subs / name)
    for index in range(plain):
        shutil.copytree(PLAIN_JAVA, subs / f"plain-{index}")
    return subs


def _assignment(root: Path, extra: str = "") -> Path:
    path = root / "assignment.toml"
    path.write_text(f'preset = "coursera-princeton"\n{extra}', encoding="utf-8")
    return path


@pytest.mark.java
def test_a_princeton_class_without_the_library_is_refused_before_any_build(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    subs = _class(tmp_path, ALGS4_USERS, plain=1)
    code = entry(["run", str(subs), "--testcases", str(CLASS / "testset"), "--assignment",
                  str(_assignment(tmp_path)), "--out", str(tmp_path / "out"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 10, err
    assert "3 of 4 Java submissions import edu.princeton.cs.algs4 (e.g. AC-campus-wording (Solver.java)" in err
    assert '[java.algs4] packaged = ["$ALGS4_JAR"]' in err and "Traceback" not in err
    assert not (tmp_path / "out" / "results.json").exists()  # nothing was graded


@pytest.mark.slow
@pytest.mark.java
def test_after_the_fix_the_class_compiles_against_the_library(tmp_path: Path) -> None:
    jar = tmp_path / "lib" / "algs4.jar"
    build_jar(DATA / "algs4-editions" / "packaged", jar, tmp_path / "classes")
    subs = _class(tmp_path, ["AC-packaged-algs4", "AC-package-puzzle8-empty-main"])
    results = grade(subs, CLASS / "testset", None, jobs=2, cases=["puzzle3x3-20"],
                    assignment_path=_assignment(tmp_path, f'[java.algs4]\npackaged = ["{jar}"]\n'))
    assert {s.id: s.cases[0].verdict.value for s in results.submissions} == \
        {"AC-packaged-algs4": "AC", "AC-package-puzzle8-empty-main": "AC"}


@pytest.mark.slow
@pytest.mark.java
def test_one_student_importing_the_library_stays_that_students_compile_error(tmp_path: Path) -> None:
    subs = _class(tmp_path, ALGS4_USERS[:1], plain=2)
    results = grade(subs, CLASS / "testset", None, jobs=2, cases=["puzzle3x3-20"],
                    assignment_path=_assignment(tmp_path))
    verdicts = {s.id: s.cases[0].verdict.value for s in results.submissions}
    # The others built and ran (their answers are the campus format's business, not this test's).
    assert verdicts["AC-packaged-algs4"] == "CE" and verdicts["plain-0"] != "CE" and verdicts["plain-1"] != "CE"
    assert "edu.princeton.cs.algs4" in results.submissions[0].cases[0].message
