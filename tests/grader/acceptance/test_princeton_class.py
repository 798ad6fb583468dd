"""One Princeton class, one configuration: both algs4 editions (and a mix), java.util.* beside the old library,
classes in a package with an empty main graded through the preset's client, and the campus wording.

The configuration is the worked one in testcases/README.md ("princeton-mixed"), read from there; the libraries are
the test's own stand-ins (data/algs4-editions), built into jars where its environment variables point.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from grader.model.results import GradingResults
from grader.pipeline import grade
from tests.support import REPO, require_tool

DATA = REPO / "tests" / "grader" / "data"
CLASS = DATA / "princeton-class"

# submission: (fragment of build.algs4, fragment of the build message or the first case's message)
EXPECTED = {
    "AC-packaged-algs4": ("algs4 packaged (edu.princeton.cs.algs4): algs4.jar", "main class Solver"),
    "AC-unnamed-algs4": ("algs4 unnamed package: stdlib.jar, algs4.jar", "main class Solver"),
    "AC-java-util-star-with-the-old-library": ("unnamed package: stdlib.jar, algs4.jar; Queue left to the Java "
                                               "library the sources import", "main class Solver"),
    "AC-java-util-star-meaning-the-algs4-queue": ("algs4 unnamed package: stdlib.jar, algs4.jar", "main class Solver"),
    "AC-mixed-editions": ("algs4 packaged (edu.princeton.cs.algs4): algs4.jar + unnamed package", "main class Solver"),
    "AC-package-puzzle8-empty-main": ("algs4 packaged", "main class puzzle8.CourseraTestClient"),
    "AC-campus-wording": ("algs4 packaged", "main class Solver"),
    "CE-campus-api-behind-the-coursera-client": ("algs4 packaged", "Solver has no method isSolvable()"),
}


def build_jar(sources: Path, jar: Path, classes: Path) -> None:
    subprocess.run([require_tool("javac"), "-d", str(classes), *map(str, sorted(sources.rglob("*.java")))],
                   check=True)
    jar.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([require_tool("jar"), "cf", str(jar), "-C", str(classes), "."], check=True)


@pytest.fixture(scope="module")
def jars(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """libs/algs4.jar (packaged), old/stdlib.jar and old/algs4.jar (unnamed), from the test's stand-ins."""
    root = tmp_path_factory.mktemp("algs4-jars")
    editions = DATA / "algs4-editions"
    build_jar(editions / "packaged", root / "libs" / "algs4.jar", root / "classes" / "packaged")
    build_jar(editions / "unnamed" / "stdlib", root / "old" / "stdlib.jar", root / "classes" / "stdlib")
    build_jar(editions / "unnamed" / "algs4", root / "old" / "algs4.jar", root / "classes" / "algs4")
    return root


@pytest.fixture(scope="module")
def graded(jars: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[GradingResults, Path]:
    root = tmp_path_factory.mktemp("princeton-class")
    readme = (REPO / "testcases" / "README.md").read_text(encoding="utf-8")
    config = re.search(r"```toml\n(# worked configuration: princeton-mixed\n.*?)```", readme, re.S)
    assert config, "testcases/README.md lost its princeton-mixed worked configuration"
    (root / "assignment.toml").write_text(config.group(1), encoding="utf-8")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("ALGS4_JAR", str(jars / "libs" / "algs4.jar"))
        env.setenv("ALGS4_OLD", str(jars / "old"))
        results = grade(CLASS / "submissions", CLASS / "testset", root / "out", jobs=2,
                        assignment_path=root / "assignment.toml")
    return results, root / "out"


@pytest.mark.slow
@pytest.mark.java
def test_results_keep_their_schema(graded: tuple[GradingResults, Path]) -> None:
    from grader.model.schemacheck import schema_problems

    assert schema_problems(json.loads((graded[1] / "results.json").read_text()), "results.schema.json") == []


def test_every_submission_is_expected() -> None:
    assert sorted(p.name for p in (CLASS / "submissions").iterdir()) == sorted(EXPECTED)


@pytest.mark.slow
@pytest.mark.java
@pytest.mark.parametrize("sid", sorted(EXPECTED))
def test_graded_right_with_one_configuration(graded: tuple[GradingResults, Path], sid: str) -> None:
    results, out = graded
    submission = next(s for s in results.submissions if s.id == sid)
    messages = "\n".join([submission.build.message] + [case.message for case in submission.cases])
    assert submission.verdict is not None and submission.verdict.value == sid.split("-")[0], messages
    library, fragment = EXPECTED[sid]
    assert library in submission.build.algs4
    assert fragment in messages
    assert ".grader" not in messages  # never an error in a file the student never saw
    assert f"Library:    {submission.build.algs4}" in (out / "feedback" / f"{sid}.txt").read_text()
    stored = next(s for s in json.loads((out / "results.json").read_text())["submissions"] if s["id"] == sid)
    assert stored["build"]["algs4"] == submission.build.algs4


@pytest.mark.slow
@pytest.mark.java
def test_retry_is_in_the_build_log(graded: tuple[GradingResults, Path]) -> None:
    # MinPQ from the old algs4.jar says the student had its Queue; javac says otherwise, and has the last word
    results, _ = graded
    submission = next(s for s in results.submissions if s.id == "AC-java-util-star-with-the-old-library")
    tried = [line for line in submission.build.log.splitlines() if line.startswith("[algs4]")]
    assert tried == ["[algs4] algs4 unnamed package: stdlib.jar, algs4.jar: 2 errors",
                     "[algs4] algs4 unnamed package: stdlib.jar, algs4.jar; Queue left to the Java library the "
                     "sources import (import ...*): compiled"]


@pytest.mark.slow
@pytest.mark.java
def test_old_unnamed_client_reaches_a_packaged_submission(jars: Path, tmp_path: Path) -> None:
    # The client needs the unnamed In and StdOut, the student's classes are in package puzzle8: the client stays
    # in the unnamed package and imports them; both editions end up on the classpath.
    (tmp_path / "PuzzleChecker.java").write_text((CLASS / "old-client" / "PuzzleChecker.java").read_text())
    config = tmp_path / "assignment.toml"
    config.write_text(f'preset = "coursera-princeton"\n[java]\nsources = ["PuzzleChecker.java"]\n[java.algs4]\n'
                      f'packaged = ["{jars / "libs" / "algs4.jar"}"]\n'
                      f'unnamed = ["{jars / "old" / "stdlib.jar"}", "{jars / "old" / "algs4.jar"}"]\n')
    results = grade(CLASS / "submissions", CLASS / "testset", None, jobs=2, assignment_path=config,
                    only=["AC-package-puzzle8-empty-main"])
    [submission] = results.submissions
    assert submission.verdict is not None and submission.verdict.value == "AC", submission.build.message
    assert submission.build.entry == "PuzzleChecker"
    assert submission.build.algs4.startswith("algs4 packaged (edu.princeton.cs.algs4): algs4.jar + unnamed package")


@pytest.mark.slow
@pytest.mark.java
def test_campus_preset_client_grades_the_campus_api(jars: Path, tmp_path: Path) -> None:
    # The submission the Coursera client cannot drive (Board.isSolvable, no Solver.isSolvable) is right for the
    # campus course: its preset's client drives it, and the campus wording is the one accepted.
    config = tmp_path / "assignment.toml"
    config.write_text(f'preset = "cos226-campus"\n[java.algs4]\npackaged = ["{jars / "libs" / "algs4.jar"}"]\n')
    results = grade(CLASS / "submissions", CLASS / "testset", None, jobs=2, assignment_path=config,
                    only=["CE-campus-api-behind-the-coursera-client"])
    [submission] = results.submissions
    assert submission.verdict is not None and submission.verdict.value == "AC", submission.build.message
    assert submission.build.entry == "puzzle8.CampusTestClient"
