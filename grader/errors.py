"""The grader's error hierarchy: grader faults and bad grader input, never a student's fault.

A student's fault is data (a verdict and a message), not an exception. These errors
are for what stops the grader itself: a bad config or manifest, a missing test file, an
unreadable submissions folder, an output folder that cannot be written. The CLI turns
each into one line on stderr and its ``exit_code`` (listed in ``grade --help``).
"""

from __future__ import annotations


class GraderError(Exception):
    exit_code = 1


class ConfigError(GraderError):
    """A config, manifest or results file that breaks its schema or cannot be parsed.

    The message reads ``file::$.json.path: message``, as check-jsonschema prints it.
    """

    exit_code = 3

    def __init__(self, file: str, json_path: str, message: str) -> None:
        self.file, self.json_path, self.detail = file, json_path, message
        super().__init__(f"{file}::{json_path}: {message}")


class CaseFileError(GraderError):
    """A test case whose input file is missing or unreadable."""

    exit_code = 4


class SubmissionsError(GraderError):
    """The submissions folder is missing, cannot be listed, holds no submission, or is not a class folder."""

    exit_code = 5


class OutputDirError(GraderError):
    """The results folder cannot be created or written."""

    exit_code = 6


class CheckFailed(GraderError):
    """``grade check`` found problems in a student's output (already listed on stdout)."""

    exit_code = 7


class TestsetInvalid(GraderError):
    """``grade testcases validate`` found problems (already listed, one per line)."""

    exit_code = 8
    __test__ = False  # not a pytest class, despite the name


class MergeError(GraderError):
    """``grade merge``: a slice is missing or repeated, or the files come from different runs (named)."""

    exit_code = 9


class SetupRefused(GraderError):
    """A setup that cannot work, refused before grading with its fix named: a library every student imports
    but the assignment does not provide, a test set without ``assignment.toml``, a gradebook that matches no
    submission, a build that cannot carry a file the assignment names."""

    exit_code = 10


EXIT_CODES: dict[int, str] = {
    0: "grading completed (whatever the students scored), or the check passed",
    1: "internal grader error (please report it)",
    2: "bad command-line usage",
    3: "a config, manifest or results file is malformed (file::$.path: message), or --resume was asked "
       "to continue a journal written for another test set or assignment",
    4: "a test case's input file is missing or unreadable",
    5: "the submissions folder is missing, unreadable or holds no submission (the files it ignored are named), "
       "or it is one student's submission, or it holds the class one level down (the folder to grade is named)",
    6: "the output folder cannot be written",
    7: "grade check: the output has problems (each listed with its line)",
    8: "grade testcases validate: the test set has problems (each listed)",
    9: "grade merge: a slice is missing or given twice, or the files come from different test sets (named)",
    10: "a setup that cannot work was refused before grading (the message names the fix): a library the class "
        "imports is not provided, the test set has no assignment.toml, a gradebook matches no submission, "
        "a build cannot carry a file the assignment names",
    11: "every submission (three or more) scored 0: the results are written, and the commonest failure is named; "
        "a whole class failing is usually a set-up mistake (io, file names, run command, interpreter, limits)",
    12: "grade doctor --install: the system tools could not be installed here (the message says what to run)",
    130: "interrupted (Ctrl-C); finished results were saved",
}
