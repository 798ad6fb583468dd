"""Each LMS's class round-trips: download names -> grade -> that LMS's own gradebook file, filled in.

The classes are laid out as each LMS's "download all submissions" names them (grader.intake.lms_names), the
gradebook files as each LMS exports them (data/lms-downloads); the sample class's programs are the students.
A matched student never gets an empty grade; a student without a submission, and a submission without a
gradebook row, are listed; a gradebook that matches nobody is refused (exit 10), never written as empty grades.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.cli import entry
from tests.grader.sampleclass import SUBMISSIONS, TESTSET

GRADEBOOKS = Path(__file__).resolve().parents[1] / "data" / "lms-downloads"
PROGRAM = {name: (SUBMISSIONS / name / "main.py").read_bytes()
           for name in ("correct", "suboptimal", "illegal-move", "compile-error")}


def _canvas(subs: Path) -> None:
    (subs / "correctcarla_1001_90001_main.py").write_bytes(PROGRAM["correct"])
    (subs / "suboptimalsam_LATE_1002_90002_main.py").write_bytes(PROGRAM["suboptimal"])
    (subs / "movesilya_1003_90003_main.py").write_bytes(PROGRAM["illegal-move"])
    with zipfile.ZipFile(subs / "compilecora_1004_90004_project.zip", "w") as archive:
        archive.writestr("project/main.py", PROGRAM["compile-error"])


def _moodle(subs: Path) -> None:
    folder = subs / "Carla Correct_1000701_assignsubmission_file_"
    folder.mkdir()
    (folder / "main.py").write_bytes(PROGRAM["correct"])
    text = subs / "Carla Correct_1000701_assignsubmission_onlinetext_"  # her online text: not a submission
    text.mkdir()
    (text / "onlinetext.html").write_text("<p>My solver uses BFS.</p>\n")
    (subs / "Sam Suboptimal_1000702_assignsubmission_file_main.py").write_bytes(PROGRAM["suboptimal"])
    (subs / "Ilya Moves_1000703_assignsubmission_file_main.py").write_bytes(PROGRAM["illegal-move"])


def _blackboard(subs: Path) -> None:
    (subs / "Project III_ccorrect_attempt_2024-03-04-10-20-00_main.py").write_bytes(PROGRAM["correct"])
    (subs / "Project III_ccorrect_attempt_2024-03-04-10-20-00.txt").write_text("Name: Carla Correct (ccorrect)\n")
    # Two attempts: the later one is the grade.
    (subs / "Project III_ssub_attempt_2024-03-03-09-00-00_main.py").write_bytes(PROGRAM["illegal-move"])
    (subs / "Project III_ssub_attempt_2024-03-04-11-02-00_main.py").write_bytes(PROGRAM["suboptimal"])
    (subs / "Project III_imoves_attempt_2024-03-04-11-40-00_main.py").write_bytes(PROGRAM["illegal-move"])


CLASSES = {
    "canvas": (_canvas, "canvas-gradebook.csv"),
    "moodle": (_moodle, "moodle-worksheet.csv"),
    "blackboard": (_blackboard, "blackboard-grade-center.csv"),
}
# Each LMS's key for a student -> which program they handed in (their latest attempt); None: no submission.
HANDED_IN = {
    "canvas": {"1001": "correct", "1002": "suboptimal", "1003": "illegal-move", "1004": "compile-error",
               "1005": None},
    "moodle": {"Participant 1000701": "correct", "Participant 1000702": "suboptimal",
               "Participant 1000703": "illegal-move", "Participant 1000704": None},
    "blackboard": {"ccorrect": "correct", "ssub": "suboptimal", "aabsent": None},
}
KEY = {"canvas": "ID", "moodle": "Identifier", "blackboard": "Username"}


@pytest.fixture(scope="module")
def reference_scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    """What each program scores when graded under a plain folder name."""
    out = tmp_path_factory.mktemp("reference")
    assert entry(["run", str(SUBMISSIONS), "--testcases", str(TESTSET), "--out", str(out), "--no-progress"]) == 0
    return {s["id"]: s["score"] for s in json.loads((out / "results.json").read_text())["submissions"]}


@pytest.mark.parametrize("lms", sorted(CLASSES))
def test_a_class_round_trips_through_its_lms(lms: str, tmp_path: Path, reference_scores: dict[str, float],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    make, gradebook = CLASSES[lms]
    subs = tmp_path / "download"
    subs.mkdir()
    make(subs)
    out = tmp_path / "results"
    assert entry(["run", str(subs), "--testcases", str(TESTSET), "--out", str(out), "--no-progress"]) == 0
    target = tmp_path / "import.csv"
    capsys.readouterr()
    code = entry(["export", str(out), "--lms", lms, "--roster", str(GRADEBOOKS / gradebook), "--out", str(target)])
    err = capsys.readouterr().err
    assert code == 0, err
    rows = [row for row in csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"), newline=""))
            if row[KEY[lms]].strip()]  # Canvas's Points Possible row has no ID
    grade_column = "Grade" if lms == "moodle" else list(rows[0])[-1]
    graded = {row[KEY[lms]]: row[grade_column] for row in rows}
    expected = {key: ("" if program is None else _number(reference_scores[program]))
                for key, program in HANDED_IN[lms].items()}
    assert graded == expected
    absent = [key for key, program in HANDED_IN[lms].items() if program is None]
    assert "roster students have no submission" in err and all(
        name in err for name in {"canvas": ["Absent, Abe"], "moodle": ["Participant 1000704"],
                                 "blackboard": ["Absent"]}[lms]), err
    assert len(absent) == 1
    if lms == "blackboard":  # imoves has no Grade Center row; ssub's older attempt is not the grade
        assert "match no roster row" in err and "Project III_imoves_attempt_2024-03-04-11-40-00" in err


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def test_a_gradebook_that_matches_nobody_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The sample class is graded under plain folder names: Moodle's participant ids are nowhere in them.
    out = tmp_path / "results"
    subs = tmp_path / "subs"
    shutil.copytree(SUBMISSIONS / "correct", subs / "carla")
    assert entry(["run", str(subs), "--testcases", str(TESTSET), "--out", str(out), "--no-progress",
                  "--cases", "easy-3x3"]) == 0
    capsys.readouterr()
    target = tmp_path / "import.csv"
    code = entry(["export", str(out), "--lms", "moodle", "--roster", str(GRADEBOOKS / "moodle-worksheet.csv"),
                  "--out", str(target)])
    err = capsys.readouterr().err
    assert code == 10 and not target.exists()
    assert "none of its 4 students matches a graded submission" in err and "carla" in err
    assert "add a 'submission' column" in err
