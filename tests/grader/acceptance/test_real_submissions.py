"""Submissions that reproduce failures from real ones (real-submissions.md) get a TA's verdict and message.

Data-driven: each folder in data/real-submissions/<set>/ is a submission named by its
expected overall verdict; <set>.json maps it to a phrase its feedback must contain.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.errors import ConfigError
from grader.model.results import GradingResults
from grader.pipeline import grade
from tests.support import require_tool

DATA = Path(__file__).resolve().parent.parent / "data"
REAL = DATA / "real-submissions"


def messages(results: GradingResults, sid: str) -> str:
    submission = next(s for s in results.submissions if s.id == sid)
    return "\n".join([submission.build.message] + [c.message for c in submission.cases])


@pytest.fixture(scope="module")
def files_results(tmp_path_factory: pytest.TempPathFactory) -> GradingResults:
    require_tool("javac")
    return grade(REAL / "files", DATA / "testset", tmp_path_factory.mktemp("out"), jobs=2)


@pytest.fixture(scope="module")
def princeton_results(princeton_set: Path, tmp_path_factory: pytest.TempPathFactory) -> GradingResults:
    return grade(REAL / "princeton", princeton_set, tmp_path_factory.mktemp("out"), jobs=2)


FILES = json.loads((REAL / "files.json").read_text())
PRINCETON = json.loads((REAL / "princeton.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("sid", sorted(FILES))
def test_cmpe_style_failure(files_results: GradingResults, sid: str) -> None:
    submission = next(s for s in files_results.submissions if s.id == sid)
    assert submission.verdict is not None and submission.verdict.value == sid.split("-")[0]
    assert FILES[sid] in messages(files_results, sid)


@pytest.mark.slow
@pytest.mark.parametrize("sid", sorted(PRINCETON))
def test_princeton_style_failure(princeton_results: GradingResults, sid: str) -> None:
    submission = next(s for s in princeton_results.submissions if s.id == sid)
    assert submission.verdict is not None and submission.verdict.value == sid.split("-")[0], messages(
        princeton_results, sid)
    assert PRINCETON[sid] in messages(princeton_results, sid)


@pytest.mark.slow
def test_empty_main_runs_the_assignment_driver_with_the_library_jar(princeton_results: GradingResults) -> None:
    submission = next(s for s in princeton_results.submissions if s.id == "AC-java-empty-main-runs-driver")
    assert submission.build.entry == "PuzzleChecker"
    assert submission.score == submission.max_score


def test_every_folder_is_listed() -> None:
    assert sorted(p.name for p in (REAL / "files").iterdir()) == sorted(FILES)
    assert sorted(p.name for p in (REAL / "princeton").iterdir()) == sorted(PRINCETON)


@pytest.mark.slow
def test_zipped_submission_and_missing_toolchain(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    with zipfile.ZipFile(subs / "student42.zip", "w") as archive:  # wrapped in a folder, as zips often are
        for path in (REAL / "files" / "WA-python-stub-always-unsolvable").rglob("*"):
            archive.write(path, f"student42/{path.name}")
    shutil.copytree(REAL / "files" / "WA-python-stub-always-unsolvable", subs / "student43")
    config = tmp_path / "assignment.toml"
    config.write_text('[python]\ninterpreter = "python2.2"\n')
    # A configured interpreter the machine lacks is the configuration's fault: one message, before any run.
    with pytest.raises(ConfigError, match=r"assignment.toml::\$\.python\.interpreter: the Python interpreter "
                                          r"'python2.2' is not installed on this machine"):
        grade(subs, DATA / "testset", None, jobs=1, assignment_path=config)
    results = grade(subs, DATA / "testset", None, jobs=1)
    assert [(s.id, s.verdict.value) for s in results.submissions] == [("student42", "WA"), ("student43", "WA")]
