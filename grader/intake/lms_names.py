"""The file and folder names an LMS's "download all submissions" gives, and the gradebook key each one carries.

Each LMS names what it downloads after the student, with the key its own gradebook file matches on:

==========  ======================================================  ==========================================
LMS         download name                                           key (gradebook column)
==========  ======================================================  ==========================================
Moodle      ``Firstname Lastname_1000703_assignsubmission_file_``   participant id: ``Identifier`` of the
            (a folder), or ``..._assignsubmission_file_solver.py``  grading worksheet, ``Participant 1000703``
Canvas      ``lastnamefirstname_12345_67890_solver.py``             Canvas user id: ``ID`` of the gradebook CSV
            (``_late_`` or ``_LATE_`` after the name when late;
            ``lastname_12345_solver.py`` without the attachment id)
Blackboard  ``Project_jdoe_attempt_2024-03-01-10-20-30_solver.py``  username: ``Username`` of the Grade Center
            (and a receipt ``..._attempt_2024-03-01-10-20-30.txt``)  CSV
==========  ======================================================  ==========================================

:func:`parse` reads one name; discovery groups loose files by their :attr:`LmsName.group` (one student each),
and ``grade export`` matches a submission id to its gradebook row through :attr:`LmsName.key`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MOODLE = re.compile(r"^(?P<person>.+?)_(?P<key>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<rest>.*)$")
_CANVAS = re.compile(r"^(?P<person>[^_]+)(?:_late)?_(?P<key>\d+)_(?P<attachment>\d+)_(?P<rest>.+)$", re.I)
_BLACKBOARD = re.compile(
    r"^(?P<assignment>.+)_(?P<key>[^_]+)_attempt_(?P<when>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<rest>.+)|\.txt)?$")
_CANVAS_SHORT = re.compile(r"^(?P<person>[^_]+)(?:_late)?_(?P<key>\d+)_(?P<rest>[^\d].*)$", re.I)
"""``lastname_123_solver.py``: the user id without an attachment id (older exports, hand-made copies)."""
LMS_NAMES = ("moodle", "canvas", "blackboard")


@dataclass(frozen=True)
class LmsName:
    """One downloaded name: which LMS, the student's gradebook key, the group (the submission id given to a
    student's loose files), the student's own file name (empty for a Moodle folder or a Blackboard receipt),
    and ``order``, which sorts a student's attempts oldest first."""

    lms: str
    key: str
    group: str
    rest: str
    order: str = ""
    part: str = ""
    """Moodle's submission plugin (``file``; ``onlinetext`` and ``comments`` hold no code)."""

    @property
    def holds_code(self) -> bool:
        return self.lms != "moodle" or self.part == "file"


def parse(name: str) -> LmsName | None:
    """The LMS name ``name`` is, or ``None``. Moodle is tried first: its names also fit Canvas's looser pattern
    only when a person's name holds no space and the plugin part were digits, which it never is."""
    match = _MOODLE.match(name)
    if match:
        return LmsName("moodle", match["key"], f"{match['person']}_{match['key']}", match["rest"],
                       part=match["plugin"])
    match = _BLACKBOARD.match(name)
    if match:
        group = f"{match['assignment']}_{match['key']}_attempt_{match['when']}"
        return LmsName("blackboard", match["key"], group, match["rest"] or "", match["when"])
    match = _CANVAS.match(name)
    if match:
        # Canvas downloads only a student's latest submission: every file of it belongs, whatever its attachment id.
        return LmsName("canvas", match["key"], f"{match['person']}_{match['key']}", match["rest"])
    match = _CANVAS_SHORT.match(name)
    if match:
        return LmsName("canvas", match["key"], f"{match['person']}_{match['key']}", match["rest"])
    return None


_GROUP = re.compile(r"^.+_(?P<key>\d+)$")
"""A Moodle or Canvas group id as discovery names a student's loose files: ``person_key``."""


def key_of(submission_id: str, lms: str) -> str | None:
    """The gradebook key in a submission id named after an ``lms`` download (a folder, a zip's stem or the
    group discovery gave loose files), else ``None``."""
    parsed = parse(submission_id)
    if parsed is not None and parsed.lms == lms:
        return parsed.key
    group = _GROUP.match(submission_id)
    return group["key"] if group and lms in ("moodle", "canvas") else None
