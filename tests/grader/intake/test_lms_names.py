"""Names as each LMS's "download all submissions" gives them: the LMS, the student's gradebook key, and the
submission id (group) their loose files are graded under."""

from __future__ import annotations

import pytest

from grader.intake.lms_names import blackboard_assignment, key_of, parse, same_person

NAMES = [
    # name, (lms, key, group, the student's own file name) or None
    ("Ada Lovelace_1000703_assignsubmission_file_", ("moodle", "1000703", "Ada Lovelace_1000703", "")),
    ("Ada Lovelace_1000703_assignsubmission_file_solver.py",
     ("moodle", "1000703", "Ada Lovelace_1000703", "solver.py")),
    ("Ada Lovelace_1000703_assignsubmission_onlinetext_onlinetext.html",
     ("moodle", "1000703", "Ada Lovelace_1000703", "onlinetext.html")),
    # Moodle 4.1 and later: no "_" after the plugin; blind marking: "Participant" for the name.
    ("Ada Lovelace_1000703_assignsubmission_file", ("moodle", "1000703", "Ada Lovelace_1000703", "")),
    ("Ada Lovelace_1000703_assignsubmission_onlinetext", ("moodle", "1000703", "Ada Lovelace_1000703", "")),
    ("Participant_1000703_assignsubmission_file", ("moodle", "1000703", "Participant_1000703", "")),
    ("lovelaceada_12345_67890_solver.py", ("canvas", "12345", "lovelaceada_12345", "solver.py")),
    ("o_brienpat_12345_67890_solver.py", ("canvas", "12345", "o_brienpat_12345", "solver.py")),  # "_" in a name
    ("anon_Xy7Qz_67890_solver.py", ("canvas", "anon_Xy7Qz", "anon_Xy7Qz", "solver.py")),  # anonymous grading
    ("LATE_anon_Xy7Qz_67890_solver.py", ("canvas", "anon_Xy7Qz", "anon_Xy7Qz", "solver.py")),
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
    ("Participant_1000703", "moodle", "1000703"),
    ("anon_Xy7Qz", "canvas", None),  # no gradebook row holds an anonymous id
    ("alice", "canvas", None),
    ("Ada Lovelace_1000703", "blackboard", None),
])
def test_a_submission_id_gives_its_gradebook_key(submission_id: str, lms: str, key: str | None) -> None:
    assert key_of(submission_id, lms) == key


@pytest.mark.parametrize("submission_id, known, key", [
    # Blackboard joins assignment and username with "_", and either may hold one: the gradebook's usernames decide.
    ("Lab_3_j_doe_attempt_2024-03-01-10-20-30", {"j_doe", "doe"}, "j_doe"),
    ("Lab_3_j_doe_attempt_2024-03-01-10-20-30", {"jdoe"}, "doe"),  # no such user: the name's own last part
    ("Lab_3_doe_attempt_2024-03-01-10-20-30", {"j_doe", "doe"}, "doe"),
])
def test_a_blackboard_username_with_underscores_is_found_through_the_gradebook(
        submission_id: str, known: set[str], key: str) -> None:
    assert key_of(submission_id, "blackboard", known) == key


@pytest.mark.parametrize("submission_id, full_name, same", [
    ("Ada Lovelace_1000703_assignsubmission_file", "Ada Lovelace", True),
    ("Ada Lovelace_1000703", "ada  lovelace", True),
    ("Pat O Brien_12", "Pat O'Brien", True),  # Moodle's file names drop what a file name cannot hold
    ("Team A-Ada Lovelace_1000703_assignsubmission_file_", "Ada Lovelace", True),  # team member before 4.1
    ("Team A_1000703_assignsubmission_file", "Ada Lovelace", False),  # a team's folder since 4.1: the group's id
    ("Participant_1000703_assignsubmission_file", "", True),  # blind marking: the worksheet has no names
])
def test_a_moodle_id_is_checked_against_the_worksheet_name(submission_id: str, full_name: str, same: bool) -> None:
    assert same_person(submission_id, full_name) is same


def test_the_assignment_a_blackboard_download_shares_tells_which_underscore_ends_it() -> None:
    # Users "correct" and "c_correct"; the assignment is "Lab_3" (every name has it), not "Lab_3_c".
    known = {"correct", "c_correct", "ssub"}
    ids = ["Lab_3_c_correct_attempt_2024-03-04-10-20-00", "Lab_3_correct_attempt_2024-03-04-10-21-00",
           "Lab_3_ssub_attempt_2024-03-04-11-02-00"]
    assignment = blackboard_assignment(ids, known)
    assert assignment == "lab_3"
    assert [key_of(sid, "blackboard", known, assignment) for sid in ids] == ["c_correct", "correct", "ssub"]
