"""Which gradebook row is which submission: by a roster column holding submission ids, or through the key each
LMS's download names carry (:mod:`grader.intake.lms_names`), matched against that LMS's own gradebook file.

A row match is a function of the row giving the submission id its student handed in, or ``""`` for none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from grader.errors import ConfigError
from grader.intake import lms_names

KEY_COLUMNS = {"canvas": "ID", "moodle": "Identifier", "blackboard": "Username"}
"""The column of each LMS's own gradebook file that holds the key its download names carry."""
MOODLE_FULL_NAME = "Full name"


def _normal(name: str) -> str:
    return re.sub(r"[\s_]+", " ", name.strip().lower())


def column(header: Sequence[str], names: Sequence[str]) -> str | None:
    """The header's column with one of ``names``, case, spaces and underscores ignored."""
    wanted = {_normal(name) for name in names}
    return next((found for found in header if _normal(found) in wanted), None)


RowMatch = Any  # (row) -> the submission id the row's student handed in, or "" for none


def rows_by_id(header: Sequence[str], id_column: str, scores: Mapping[str, float]) -> RowMatch:
    """Rows matched by the submission id they hold; spreadsheets trim cells, so ids match trimmed."""
    key = column(header, (id_column,)) or id_column
    trimmed = {sid.strip(): sid for sid in sorted(scores, reverse=True)}

    def match(row: Mapping[str, str]) -> str:
        cell = (row.get(key) or "").strip()
        return trimmed.get(cell, cell)
    return match


def rows_by_key(header: Sequence[str], rows: Sequence[Mapping[str, str]], lms: str, scores: Mapping[str, float],
           source: str, lms_name: str) -> RowMatch:
    """Rows matched through the LMS key each submission id carries (a student's latest attempt wins)."""
    key_column = column(header, (KEY_COLUMNS[lms],))
    if key_column is None:
        raise ConfigError(source, "line 1", f"expected a 'submission' column holding the submission ids, or "
                                            f"{lms_name}'s own {KEY_COLUMNS[lms]!r} column to match the "
                                            f"names its download gives; found {', '.join(map(repr, header))}")
    known = {_row_key(row.get(key_column), lms) for row in rows} - {""}
    assignment = lms_names.blackboard_assignment(scores, known) if lms == "blackboard" else None
    owner: dict[str, str] = {}
    for sid in sorted(scores):  # Blackboard attempts sort by date: the latest is kept
        key = lms_names.key_of(sid, lms, known, assignment)
        if key is not None:
            owner[key.casefold()] = sid
    full_name = column(header, (MOODLE_FULL_NAME,)) if lms == "moodle" else None

    def match(row: Mapping[str, str]) -> str:
        sid = owner.get(_row_key(row.get(key_column), lms), "")
        # A Moodle team's folder carries its group's id, which may equal another student's participant id.
        if sid and full_name and not lms_names.same_person(sid, row.get(full_name) or ""):
            return ""
        return sid
    return match


_TRAILING_NUMBER = re.compile(r"(\d+)\s*$")


def _row_key(cell: str | None, lms: str) -> str:
    """The key a gradebook row's key cell holds: Moodle's ``Participant 1000703`` (a word its language gives,
    then the participant id) gives ``1000703``; the other LMSs' cells are the key itself."""
    cell = (cell or "").strip()
    if lms == "moodle":
        number = _TRAILING_NUMBER.search(cell)
        return number[1] if number else ""
    return cell.casefold()
