"""results.json: the whole grading as JSON (:class:`grader.model.results.GradingResults`), and read back.

The model validates every record when it is made, so what is written is sound; reading checks a file
against the same model (errors as ``file::$.path: message``, :mod:`grader.model.loading`).
"""

from __future__ import annotations

import dataclasses
import textwrap
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from grader.model.apiresult import ApiResult
from grader.model.loading import load_json, validated
from grader.model.results import RESULTS, CaseResult, GradingResults, results_json
from grader.reports.escaping import json_text
from solver.fileio import write_atomic

_CASE = TypeAdapter(CaseResult)
_API = TypeAdapter(ApiResult)


def results_text(results: GradingResults, pretty: bool = False) -> str:
    """results.json's text: compact (a class of 1,000 is a fifth of the indented size), indented if ``pretty``."""
    return "".join(results_pieces(results, pretty))


def results_pieces(results: GradingResults, pretty: bool = False) -> Iterator[str]:
    """results.json's text piece by piece: the top level, then one submission at a time (a class of 1,000 read
    back from the journal is never whole in memory); the same text as the whole document's."""
    head = results_json(dataclasses.replace(results, submissions=()))
    marker = f"submissions-{uuid.uuid4().hex}"  # where the submissions go in the top level's text
    before, after = json_text({**head, "submissions": marker}, pretty=pretty).split(f'"{marker}"')
    yield before + "["
    count = 0
    for submission in results.submissions:
        text = json_text(submission.to_json(), pretty=pretty)
        if pretty:
            text = "\n" + textwrap.indent(text, "    ")
        yield ("," if count else "") + text
        count += 1
    yield ("\n  ]" if pretty and count else "]") + after + "\n"


def write_json(results: GradingResults, path: Path, pretty: bool = False) -> None:
    write_atomic(path, results_pieces(results, pretty))


def read_results(path: Path) -> GradingResults:
    """A results.json, parsed and checked against the model (errors as ``file::$.path: message``)."""
    return load_json(Path(path), RESULTS)


def results_from_json(data: Mapping[str, Any], source: str = "results.json") -> GradingResults:
    """The results model back from its JSON document."""
    return validated(RESULTS, data, source)


def case_from_json(entry: Mapping[str, Any]) -> CaseResult:
    """One case result back from its JSON (a journal line's)."""
    return _CASE.validate_python(entry)


def api_from_json(entry: Mapping[str, Any]) -> ApiResult:
    """One API test's result back from its JSON (a journal entry's)."""
    return _API.validate_python(entry)
