"""Names as each LMS's "download all submissions" gives them: the LMS, the student's gradebook key, and the
submission id (group) their loose files are graded under."""

from __future__ import annotations

import pytest

from grader.intake.lms_names import key_of, parse

NAMES = [
    # name, (lms, key, group, the student's own file name) or None
    ("Ada Lovelace_1000703_assignsubmission_file_", ("moodle", "1000703", "Ada Lovelace_1000703", "")),
    ("Ada Lovelace_1000703_assignsubmission_file_solver.py",
     ("moodle", "1000703", "Ada Lovelace_1000703", "solver.py")),
    ("Ada Lovelace_1000703_assignsubmission_onlinetext_onlinetext.html",
     ("moodle", "1000703", "Ada Lovelace_1000703", "onlinetext.html")),
    ("lovelaceada_12345_67890_solver.py", ("canvas", "12345", "lovelaceada_12345", "solver.py")),
    ("lovelaceada_LATE_12345_67891_Board.java", ("canvas", "12345", "lovelaceada_12345", "Board.java")),
    ("lovelaceada_late_12345_67892_my_solver_v2.py", ("canvas", "12345", "lovelaceada_12345", "my_solver_v2.py")),
    ("Project 3_jdoe_attempt_2024-03-01-10-20-30_solver.py",
     ("blackboard", "jdoe", "Project 3_jdoe_attempt_2024-03-01-10-20-30", "solver.py")),
    ("Project_3_jdoe_attempt_2024-03-01-10-20-30.txt",
     ("blackboard", "jdoe", "Project_3_jdoe_attempt_2024-03-01-10-20-30", "")),
    ("solver.py", None),
    ("alice", None),
    ("lastname_123_solver.py", ("canvas", "123", "lastname_123", "solver.py")),  # no attachment id
    ("my_solver_2.py", None),
    ("test_1_2.txt", None),
]


@pytest.mark.parametrize("name, expected", NAMES)
def test_download_names_are_read(name: str, expected: tuple[str, str, str, str] | None) -> None:
    parsed = parse(name)
    assert (parsed and (parsed.lms, parsed.key, parsed.group, parsed.rest)) == expected


@pytest.mark.parametrize("submission_id, lms, key", [
    ("lovelaceada_12345", "canvas", "12345"),
    ("lovelaceada_12345_67890_project", "canvas", "12345"),  # a zip's stem
    ("Ada Lovelace_1000703_assignsubmission_file_", "moodle", "1000703"),
    ("Ada Lovelace_1000703", "moodle", "1000703"),
    ("Project_3_jdoe_attempt_2024-03-01-10-20-30", "blackboard", "jdoe"),
    ("alice", "canvas", None),
    ("Ada Lovelace_1000703", "blackboard", None),
])
def test_a_submission_id_gives_its_gradebook_key(submission_id: str, lms: str, key: str | None) -> None:
    assert key_of(submission_id, lms) == key
