"""The resume journal's entries (:mod:`grader.journal`): one finished case, or one submission's finished API part.

An entry that does not validate (torn by a crash, damaged, from another version) is left out by the reader, so
its case is graded again; ``grader/schemas/journal*.schema.json`` are generated from these records.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from grader.model.apiresult import ApiResult
from grader.model.base import NonEmptyText, Record, Str, Text, record
from grader.model.results import BuildRecord, CaseResult

Key = Annotated[Str, Field(pattern=r"^[0-9a-f]{64}$", description=(
    "sha256 of the test set, assignment and time-limit override the entry was graded with."))]
Language = Literal["java", "python", "command", "unknown"]


@record
class JournalCase(Record):
    """One finished (submission, case) result, a line of ``OUT_DIR/.journal/<submission>-<hash>/cases.jsonl``."""

    format_version: Literal[1, 2] = Field(default=2, description=(
        "2: the result as results.json format 2 writes it (coded path, defaults left out); 1 is read alike."))
    key: Key
    submission: NonEmptyText
    source: Text
    language: Language
    build: BuildRecord
    result: CaseResult


@record
class JournalApi(Record):
    """One submission's finished API part, ``OUT_DIR/.journal/<submission>-<hash>/api/results.json``."""

    format_version: Literal[1] = 1
    key: Key
    submission: NonEmptyText
    source: Text
    language: Language
    build: BuildRecord
    api: tuple[ApiResult, ...]


JOURNAL_CASE = TypeAdapter(JournalCase)
JOURNAL_API = TypeAdapter(JournalApi)
