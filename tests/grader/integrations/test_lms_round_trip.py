"""Each LMS's class round-trips: download names -> grade -> that LMS's own gradebook file, filled in.

The classes are laid out as each LMS's "download all submissions" names them (grader.intake.lms_names), the
gradebook files as each LMS exports them (data/lms-downloads); the sample class's programs are the students.
A matched student never gets an empty grade; a student without a submission, and a submission without a
gradebook row, are listed; a gradebook that matches nobody is refused (exit 10), never written as empty grades.
"""

from __future__ import annotations

import csv
import io
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.cli import entry
from grader.integrations.lms import export_grades
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded

GRADEBOOKS = Path(__file__).resolve().parents[1] / "data" / "lms-downloads"
PROGRAM = {name: (SUBMISSIONS / name / "main.py").read_bytes()
           for name in ("correct", "suboptimal", "illegal-move", "compile-error")}


def _canvas(subs: Path) -> None:
    # Canvas: the sortable name stripped to word characters (an underscore stays), _LATE_ when late, the user id,
    # the attachment id, the student's own file name.
    (subs / "correctcarla_1001_90001_main.py").write_bytes(PROGRAM["correct"])
    (subs / "suboptimalsam_LATE_1002_90002_main.py").write_bytes(PROGRAM["suboptimal"])
    (subs / "moves_smithilya_1003_90003_main.py").write_bytes(PROGRAM["illegal-move"])
    with zipfile.ZipFile(subs / "compilecora_1004_90004_project.zip", "w") as archive:
        archive.writestr("project/main.py", PROGRAM["compile-error"])


def _moodle(subs: Path) -> None:
    # Moodle 4.1 and later: a folder per student and plugin, "Full name_participant id_assignsubmission_file".
    folder = subs / "Carla Correct_1000701_assignsubmission_file"
    folder.mkdir()
    (folder / "main.py").write_bytes(PROGRAM["correct"])
    text = subs / "Carla Correct_1000701_assignsubmission_onlinetext"  # her online text: not a submission
    text.mkdir()
    (text / "onlinetext.html").write_text("<p>My solver uses BFS.</p>\n")
    # A flat download ("Download submissions in folders" off) and a folder as Moodle 3.x named it.
    (subs / "Sam Suboptimal_1000702_assignsubmission_file_main.py").write_bytes(PROGRAM["suboptimal"])
    older = subs / "Ilya Moves_1000703_assignsubmission_file_"
    older.mkdir()
    (older / "main.py").write_bytes(PROGRAM["illegal-move"])


def _blackboard(subs: Path) -> None:
    # Blackboard: assignment_username_attempt_date; both the assignment (Lab_3) and a username (c_correct) hold "_".
    (subs / "Lab_3_c_correct_attempt_2024-03-04-10-20-00_main.py").write_bytes(PROGRAM["correct"])
    (subs / "Lab_3_c_correct_attempt_2024-03-04-10-20-00.txt").write_text("Name: Carla Correct (c_correct)\n")
    # Two attempts: the later one is the grade.
    (subs / "Lab_3_ssub_attempt_2024-03-03-09-00-00_main.py").write_bytes(PROGRAM["illegal-move"])
    (subs / "Lab_3_ssub_attempt_2024-03-04-11-02-00_main.py").write_bytes(PROGRAM["suboptimal"])
    (subs / "Lab_3_imoves_attempt_2024-03-04-11-40-00_main.py").write_bytes(PROGRAM["illegal-move"])


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
    "blackboard": {"c_correct": "correct", "ssub": "suboptimal", "aabsent": None},
}
KEY = {"canvas": "ID", "moodle": "Identifier", "blackboard": "Username"}


def _as_saved(gradebook: Path, saved: str, folder: Path) -> Path:
    """The gradebook file as the LMS hands it out: as is, or (Blackboard's "Work Offline > Download" default)
    tab-delimited UTF-16 with a byte-order mark."""
    if saved == "as-is":
        return gradebook
    rows = list(csv.reader(io.StringIO(gradebook.read_text(encoding="utf-8"), newline="")))
    out = io.StringIO()
    csv.writer(out, delimiter="\t", lineterminator="\r\n").writerows(rows)
    target = folder / f"{gradebook.stem}.xls"
    target.write_bytes(out.getvalue().encode("utf-16"))
    return target


@pytest.fixture(scope="module")
def reference_scores(graded: Graded) -> dict[str, float]:
    """What each program scores when graded under a plain folder name (the session's sample-class run)."""
    return {s["id"]: s["score"] for s in graded.document["submissions"]}


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Each LMS's class graded once under its download names (two gradebook files read one run)."""
    done: dict[str, Path] = {}

    def results(lms: str) -> Path:
        if lms not in done:
            subs = tmp_path_factory.mktemp(f"{lms}-download")
            CLASSES[lms][0](subs)
            out = tmp_path_factory.mktemp(f"{lms}-results")
            assert entry(["run", str(subs), "--testcases", str(TESTSET), "--out", str(out), "--no-progress"]) == 0
            done[lms] = out
        return done[lms]
    return results


@pytest.mark.parametrize("lms, saved", [("canvas", "as-is"), ("moodle", "as-is"), ("blackboard", "as-is"),
                                        ("blackboard", "tab-utf16")])
def test_a_class_round_trips_through_its_lms(lms: str, saved: str, tmp_path: Path,
                                             downloads: Callable[[str], Path], reference_scores: dict[str, float],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = downloads(lms)
    gradebook = _as_saved(GRADEBOOKS / CLASSES[lms][1], saved, tmp_path)
    target = tmp_path / "import.csv"
    capsys.readouterr()
    code = entry(["export", str(out), "--lms", lms, "--roster", str(gradebook), "--out", str(target)])
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
        assert "match no roster row" in err and "Lab_3_imoves_attempt_2024-03-04-11-40-00" in err


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


_WORKSHEET = ('Identifier,"Full name","Email address",Status,Grade,"Maximum Grade"\r\n'
              '"Participant 1000701","Carla Correct",carla@example.edu,"Submitted for grading",,6.00\r\n'
              '"Participant 1000702","Sam Suboptimal",sam@example.edu,"Submitted for grading",,6.00\r\n')
_BLIND_WORKSHEET = ('Identifier,Status,Grade,"Maximum Grade"\r\n'  # blind marking: no names, no emails
                    '"Participant 1000701","Submitted for grading",,6.00\r\n'
                    '"Participant 1000702","Submitted for grading",,6.00\r\n')
_CANVAS = ('Student,ID,SIS User ID,SIS Login ID,Section,Project III (555)\r\n'
           '"Correct, Carla",1001,S1001,ccorrect,Section 1,\r\n'
           '"Suboptimal, Sam",1002,S1002,ssub,Section 1,\r\n')


@pytest.mark.parametrize("lms, gradebook, scores, expected, unmatched", [
    # Moodle 4.1 names a team's folder by the group's name and id; group 1000702 is not Sam (participant 1000702).
    pytest.param("moodle", _WORKSHEET,
     {"Carla Correct_1000701_assignsubmission_file": 6, "Team Blue_1000702_assignsubmission_file": 4},
     {"Participant 1000701": "6", "Participant 1000702": ""}, ["Team Blue_1000702_assignsubmission_file"],
     id="moodle-team-folder-named-by-group"),
    # Before 4.1 each team member's folder was "Team-Full name_participant id_": it is that member's.
    pytest.param("moodle", _WORKSHEET,
     {"Team Blue-Carla Correct_1000701_assignsubmission_file_": 6, "Team Blue-Sam Suboptimal_1000702": 4},
     {"Participant 1000701": "6", "Participant 1000702": "4"}, [], id="moodle-team-member-before-4.1"),
    # Blind marking: "Participant_id" folders (and loose files grouped as such) against a worksheet without names.
    pytest.param("moodle", _BLIND_WORKSHEET,
     {"Participant_1000701_assignsubmission_file": 6, "Participant_1000702": 4},
     {"Participant 1000701": "6", "Participant 1000702": "4"}, [], id="moodle-blind-marking"),
    # Canvas's anonymous grading names files anon_<anonymous id>: no gradebook row carries it, whatever it holds.
    pytest.param("canvas", _CANVAS, {"anon_1001x": 6, "suboptimalsam_1002": 4},
                 {"1001": "", "1002": "4"}, ["anon_1001x"], id="canvas-anonymous-grading"),
])
def test_names_no_gradebook_row_carries_are_listed_never_matched(
        lms: str, gradebook: str, scores: dict[str, float], expected: dict[str, str], unmatched: list[str],
        tmp_path: Path) -> None:
    roster = tmp_path / "gradebook.csv"
    roster.write_text(gradebook, encoding="utf-8", newline="")
    # Only the scores matter here: the export reads each submission's id and score, the title and the maximum.
    results = SimpleNamespace(submissions=[SimpleNamespace(id=sid, score=score) for sid, score in scores.items()],
                              max_score=6, title="")
    exported = export_grades(results, roster, lms)  # type: ignore[arg-type]
    rows = list(csv.DictReader(io.StringIO(exported.text, newline="")))
    grade = "Grade" if lms == "moodle" else list(rows[0])[-1]
    assert {row[KEY[lms]]: row[grade] for row in rows if row[KEY[lms]].strip()} == expected
    assert list(exported.unmatched_submissions) == unmatched
