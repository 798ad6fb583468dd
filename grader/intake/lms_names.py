"""The file and folder names an LMS's "download all submissions" gives, and the gradebook key each one carries.

Each LMS names what it downloads after the student, with the key its own gradebook file matches on (the sources,
each LMS's own code and manuals, are cited in docs/integrations.md):

==========  ======================================================  ==========================================
LMS         download name                                           key (gradebook column)
==========  ======================================================  ==========================================
Moodle      ``Firstname Lastname_1000703_assignsubmission_file``    participant id: ``Identifier`` of the
            (a folder; ``..._file_`` before Moodle 4.1), or         grading worksheet, ``Participant 1000703``
            ``..._assignsubmission_file_solver.py`` (flat zips);
            ``Participant_1000703_...`` under blind marking; team
            submissions ``Team A-Firstname Lastname_1000703_...``
            before 4.1, ``Team A_57_...`` (the group's id) since
Canvas      ``lastnamefirstname_12345_67890_solver.py``             Canvas user id: ``ID`` of the gradebook CSV
            (the sortable name stripped of all but word
            characters; ``_LATE_`` after it when late;
            ``anon_Ab3xZ_67890_solver.py`` under anonymous
            grading, which no gradebook row carries)
Blackboard  ``Project_jdoe_attempt_2024-03-01-10-20-30_solver.py``  username: ``Username`` of the Grade Center
            (and a receipt ``..._attempt_2024-03-01-10-20-30.txt``)  download
==========  ======================================================  ==========================================

:func:`parse` reads one name; discovery groups loose files by their :attr:`LmsName.group` (one student each),
and ``grade export`` matches a submission id to its gradebook row through :func:`key_of`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

# Moodle 4.1 and later name a student's folder without the trailing "_" older versions put after the plugin.
_MOODLE = re.compile(r"^(?P<person>.+?)_(?P<key>\d+)_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<rest>.*))?$")
# Canvas's person part is the sortable name with every non-word character removed: it may hold an underscore
# (never one around digits, which Canvas removes so that the ids stay readable), hence the shortest match.
_CANVAS = re.compile(r"^(?P<person>.+?)(?:_late)?_(?P<key>\d+)_(?P<attachment>\d+)_(?P<rest>.+)$", re.IGNORECASE)
_CANVAS_ANONYMOUS = re.compile(r"^(?:LATE_)?(?P<key>anon_[A-Za-z0-9]+)(?:_(?P<attachment>\d+)_(?P<rest>.+))?$")
"""Canvas under anonymous grading: ``anon_`` and the submission's anonymous id instead of name and user id."""
_BLACKBOARD = re.compile(
    r"^(?P<assignment>.+)_(?P<key>[^_]+)_attempt_(?P<when>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<rest>.+)|\.txt)?$")
_CANVAS_SHORT = re.compile(r"^(?P<person>[^_]+)(?:_late)?_(?P<key>\d+)_(?P<rest>[^\d].*)$", re.IGNORECASE)
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
        return LmsName("moodle", match["key"], f"{match['person']}_{match['key']}", match["rest"] or "",
                       part=match["plugin"])
    match = _BLACKBOARD.match(name)
    if match:
        group = f"{match['assignment']}_{match['key']}_attempt_{match['when']}"
        return LmsName("blackboard", match["key"], group, match["rest"] or "", match["when"])
    match = _CANVAS_ANONYMOUS.match(name)
    if match and match["rest"]:
        return LmsName("canvas", match["key"], match["key"], match["rest"])
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
_BLACKBOARD_ID = re.compile(r"^(?P<prefix>.+)_attempt_\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d(?:_.*|\.txt)?$")


def _blackboard_splits(submission_id: str, known: Collection[str]) -> dict[str, str]:
    """Each way a Blackboard name splits into assignment and a known username: assignment -> username."""
    prefix = _BLACKBOARD_ID.match(submission_id)
    if not prefix:
        return {}
    name = prefix["prefix"].casefold()
    return {name[:-len(key) - 1]: key for key in sorted(known, key=len)
            if key and name.endswith("_" + key.casefold())}


def blackboard_assignment(submission_ids: Collection[str], known: Collection[str]) -> str | None:
    """The assignment name a Blackboard download's names share (one download is one assignment): the split
    that the most names allow, so that ``Lab_3_c`` + ``correct`` is told from ``Lab_3`` + ``c_correct``."""
    counts: dict[str, int] = {}
    for sid in submission_ids:
        for assignment in _blackboard_splits(sid, known):
            counts[assignment] = counts.get(assignment, 0) + 1
    return max(sorted(counts), key=counts.__getitem__) if counts else None


def key_of(submission_id: str, lms: str, known: Collection[str] = (), assignment: str | None = None) -> str | None:
    """The gradebook key in a submission id named after an ``lms`` download (a folder, a zip's stem or the
    group discovery gave loose files), else ``None``.

    ``known`` holds the keys the gradebook has. Blackboard joins assignment and username with ``_`` and either
    may hold one (``Lab_2_j_doe_attempt_...``): the username is the known one the name ends with that leaves
    ``assignment`` before it (see :func:`blackboard_assignment`), else the longest known one it ends with.
    A Canvas anonymous id (``anon_...``) is no gradebook key, whatever digits it holds.
    """
    if lms == "canvas" and _CANVAS_ANONYMOUS.match(submission_id):
        return None
    if lms == "blackboard" and known:
        owners = _blackboard_splits(submission_id, known)
        if owners:
            chosen = owners.get(assignment.casefold()) if assignment is not None else None
            return chosen or max(owners.values(), key=len)
    parsed = parse(submission_id)
    if parsed is not None and parsed.lms == lms:
        return parsed.key
    group = _GROUP.match(submission_id)
    return group["key"] if group and lms in ("moodle", "canvas") else None


_MOODLE_ID = re.compile(r"^(?P<person>.+?)_\d+(?:_assignsubmission_.*)?$")
_NOT_A_LETTER = re.compile(r"[\W_]+")


def same_person(submission_id: str, full_name: str) -> bool:
    """Whether a Moodle submission id names the student whose worksheet ``Full name`` is ``full_name``.

    Moodle's download puts the student's full name before the participant id, with ``_`` turned into spaces and
    the characters a file name cannot hold removed (``Team A-Full Name`` for a team member before Moodle 4.1), so
    the names are compared on letters and digits only. A team's folder since 4.1 carries the group's name and id
    instead, and that id may equal another student's participant id: the name tells them apart. An empty
    ``full_name`` (blind marking leaves the worksheet without names) matches any id."""
    wanted = _NOT_A_LETTER.sub("", full_name).casefold()
    if not wanted:
        return True
    match = _MOODLE_ID.match(submission_id)
    return match is not None and _NOT_A_LETTER.sub("", match["person"]).casefold().endswith(wanted)
