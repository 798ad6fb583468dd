"""The Gradescope zip carries what the assignment names, and only what grading needs.

The TA's assignment names the algs4 jar by an absolute path on their machine (as testcases/README.md shows);
the zip carries the jar in, names it relatively, and a Java student who imports the library is graded in a
simulated /autograder layout. No host path is left in the zip; the solver's pattern tables are left out.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from grader.cli import entry
from tests.grader.acceptance.test_princeton_class import CLASS, DATA, build_jar
from tests.grader.integrations.test_gradescope import _fake_root, _run_autograder


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TA's machine: the jar in a folder of its own, the test set elsewhere naming it absolutely."""
    root = tmp_path_factory.mktemp("ta-machine")
    jar = root / "opt" / "algs4" / "algs4.jar"
    build_jar(DATA / "algs4-editions" / "packaged", jar, root / "classes")
    testset = root / "course" / "testset"
    shutil.copytree(CLASS / "testset", testset)
    (testset / "assignment.toml").write_text(f'preset = "coursera-princeton"\n\n[java.algs4]\npackaged = ["{jar}"]\n')
    return root


@pytest.fixture(scope="module")
def autograder_zip(host: Path) -> Path:
    out = host / "autograder.zip"
    assert entry(["gradescope", "build", "--testcases", str(host / "course" / "testset"), "--out", str(out)]) == 0
    return out


@pytest.mark.java
def test_the_zip_carries_the_jar_and_no_host_path(host: Path, autograder_zip: Path) -> None:
    with zipfile.ZipFile(autograder_zip) as archive:
        names = archive.namelist()
        assignment = archive.read("testcases/assignment.toml").decode()
        texts = [archive.read(n) for n in names if n.startswith("testcases/") and not n.endswith(".jar")]
    assert "testcases/carried/1/algs4.jar" in names
    assert 'packaged = ["carried/1/algs4.jar"]' in assignment
    assert not any(str(host).encode() in text for text in texts)
    # Grading never reads the solver's pattern tables: they stay out (they were 46.8 of 47 MB).
    assert not any(name.endswith(".bin.xz") for name in names)
    assert autograder_zip.stat().st_size < 3_000_000


@pytest.mark.slow
@pytest.mark.java
def test_a_java_student_is_graded_with_the_carried_jar(tmp_path: Path, autograder_zip: Path) -> None:
    root = _fake_root(tmp_path, autograder_zip, CLASS / "submissions" / "AC-packaged-algs4")
    results = _run_autograder(root)
    build = results["tests"][0]
    assert build["status"] == "passed", build["output"]
    assert results["score"] == 3 and all(t["status"] == "passed" for t in results["tests"])
    assert "algs4.jar" in build["output"] and str(tmp_path) not in results["output"]


@pytest.mark.parametrize("setting, fragment", [
    ('[python]\ninterpreter = "/home/ta/.pyenv/versions/2.7.18/bin/python"\n',
     "$.python.interpreter: '/home/ta/.pyenv/versions/2.7.18/bin/python' is a path on this machine"),
])
def test_a_path_the_build_cannot_carry_is_refused(setting: str, fragment: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    testset = tmp_path / "testset"
    shutil.copytree(CLASS / "testset", testset)
    (testset / "assignment.toml").write_text(setting)
    code = entry(["gradescope", "build", "--testcases", str(testset), "--out", str(tmp_path / "a.zip")])
    err = capsys.readouterr().err
    assert code == 10 and fragment in err and "name the interpreter instead" in err
    assert not (tmp_path / "a.zip").exists()


def test_a_set_without_an_assignment_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = entry(["gradescope", "build", "--testcases", str(CLASS / "testset"), "--out", str(tmp_path / "a.zip")])
    assert code == 10 and "the test set has no assignment.toml" in capsys.readouterr().err


@pytest.mark.java
def test_a_visible_only_export_carries_the_jar_too(host: Path, tmp_path: Path) -> None:
    # The export is what a GitHub Classroom template repository holds: it cannot reach the TA's paths either.
    out = tmp_path / "template" / "testcases"
    assert entry(["testcases", "export", str(host / "course" / "testset"), "--visible", "--out", str(out)]) == 0
    assert (out / "carried" / "1" / "algs4.jar").is_file()
    assert 'packaged = ["carried/1/algs4.jar"]' in (out / "assignment.toml").read_text()
    from grader.testsets.assignment import load_assignment

    assert load_assignment(out / "assignment.toml").java.algs4.packaged == ((out / "carried/1/algs4.jar").resolve(),)
