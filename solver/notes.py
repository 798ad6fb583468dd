"""What the lenient parsers forgave: one :class:`Note` per deviation from the exact format, collapsed by
kind (a megabyte of blank lines is one note with a count), and the characters the format does not allow
but a lenient reading accepts. :mod:`solver.formats` writes them; the grader's strict mode reports them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """A deviation from the prescribed format that the lenient parser forgave.

    ``kind`` names the deviation (``message`` when empty): notes collapse by kind, so lines
    that differ only in what they quote (a million spellings of the unsolvable wording) are
    one note with a count.
    """

    line: int
    message: str
    kind: str = ""


_ODD_CHARACTER_RE = re.compile(r"(?![0-9])\d|[^\S \n\r]|\r(?!\n)")
"""What the format's strict reading refuses: digits other than ASCII 0-9 (Arabic-Indic, full-width,
Devanagari...; Python's ``int`` reads them), and whitespace other than the space, LF and CRLF (tabs,
NBSP, U+2028/U+2029/U+0085, VT, FF, a lone CR; ``str.split`` and ``splitlines`` take them)."""


def _odd_kind(char: str) -> str:
    if char.isdigit():
        return "non-ASCII digits"
    if char == "\r" or ("a" + char + "b").splitlines() != ["a" + char + "b"]:
        return "line break"
    return "space character"


def character_notes(text: str) -> list[Note]:
    """One note per kind of character the format does not allow but the lenient reading accepts
    (see :data:`_ODD_CHARACTER_RE`), at its first line, with how many there are.

    >>> [(n.line, n.kind) for n in character_notes("3\\u2028\\u0661 2\\n")]
    [(1, 'line break'), (2, 'non-ASCII digits')]
    """
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    for match in _ODD_CHARACTER_RE.finditer(text):
        kind = _odd_kind(match.group())
        counts[kind] = counts.get(kind, 0) + 1
        first.setdefault(kind, match.start())
    what = {"non-ASCII digits": "digits other than ASCII 0-9", "line break": "a line break other than LF or CRLF",
            "space character": "a space character other than the ASCII space"}
    notes = []
    for kind, at in sorted(first.items(), key=lambda item: item[1]):
        char = text[at]
        line = len((text[:at] + "x").splitlines())  # numbered as the parser numbers lines
        shown = f"{char!r} (U+{ord(char):04X} {unicodedata.name(char, 'control character')})"
        notes.append(Note(line, f"{what[kind]}: {shown}, {counts[kind]:,} in all", kind))
    return notes


MAX_NOTE_KINDS = 12
"""Kinds of deviation listed per answer; the rest are counted in one last note (the parser has fewer
kinds than this, so it only bounds what a future kind could add)."""


class Notes:
    """The notes of one parse, collapsed as they come: one per kind of deviation, at its first
    line, with how many lines have it (a megabyte of blank lines, or of slightly different
    wordings, is a count, not a million notes); at most :data:`MAX_NOTE_KINDS` kinds."""

    def __init__(self) -> None:
        self.first: dict[str, Note] = {}
        self.count: dict[str, int] = {}

    def add(self, line: int, message: str, kind: str = "") -> None:
        key = kind or message
        count = self.count.get(key)
        if count is None:
            self.first[key] = Note(line, message, key)
        self.count[key] = (count or 0) + 1

    def collapse(self) -> tuple[Note, ...]:
        notes = sorted((Note(note.line, note.message if self.count[key] == 1 else
                             f"{note.message} (on {self.count[key]:,} lines, the first shown)", key)
                        for key, note in self.first.items()), key=lambda note: note.line)
        if len(notes) <= MAX_NOTE_KINDS:
            return tuple(notes)
        rest = notes[MAX_NOTE_KINDS - 1:]
        more = Note(rest[0].line, f"and {len(rest)} more kinds of format deviation (the first on this line)",
                    "more kinds")
        return (*notes[:MAX_NOTE_KINDS - 1], more)


def collapse_notes(notes: Iterable[Note]) -> tuple[Note, ...]:
    """One note per kind of deviation, at its first line, saying how many lines have it."""
    collected = Notes()
    for note in notes:
        collected.add(note.line, note.message, note.kind)
    return collected.collapse()
