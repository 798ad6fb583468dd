"""The JSON Schema files in ``grader/schemas/`` that the vocabulary defines, generated from its models.

``python -m grader.model.schemas --write`` rewrites them; ``--check`` (and
``tests/grader/model/test_schemas.py``) fails when a committed file differs from what the models say,
so a model and its published schema cannot drift apart. A file describes what the grader writes
(``results.json``: serialization mode, derived keys such as ``score`` included) or what it reads
(``assignment.toml``: validation mode).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from grader.model.assignment import Assignment
from grader.model.journal import JOURNAL_API, JOURNAL_CASE
from grader.model.manifest import manifest_schema
from grader.model.results import RESULTS

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"

def _assignment() -> dict[str, Any]:
    schema = TypeAdapter(Assignment).json_schema()
    schema["description"] = (
        "Sits beside manifest.json in a test-set folder (or is given with --assignment). Every key is optional; "
        "paths are relative to the file's folder. Command lists are argv lists; placeholders, filled in every "
        "mode ([java], [python] and [command]): {input} (the input file name in the run folder), {output} (the "
        "output file name), {board} (the board as a comma list, 0,1,2,...), {memory_mb}, {heap_mb}, {classpath}, "
        "{main_class}, {build_dir}, {python} (the configured interpreter's real path); an item that is exactly "
        "{sources} (the .java files) or {entry} (the Python entry: -B main.py, or -B -m solver) expands to "
        "several arguments. testcases/README.md lists each with an example.")
    return schema


GENERATED: dict[str, tuple[str, Callable[[], dict[str, Any]]]] = {
    "journal.schema.json": ("One journal entry: a finished (submission, case) result, a line of "
                            "OUT_DIR/.journal/<submission>-<hash>/cases.jsonl", JOURNAL_CASE.json_schema),
    "journal-api.schema.json": ("One submission's finished API part in the journal, "
                                "OUT_DIR/.journal/<submission>-<hash>/api/results.json",
                                JOURNAL_API.json_schema),
    "manifest.schema.json": ("N-puzzle test set manifest (testcases/<set>/manifest.json)", manifest_schema),
    "assignment.schema.json": ("assignment.toml: how an N-puzzle assignment's submissions are built, run and judged",
                               _assignment),
    "results.schema.json": ("results.json: every submission's grade, case by case",
                            lambda: RESULTS.json_schema(mode="serialization")),
}
"""File name -> (title, the schema of its model)."""


_DESCRIBED = ("assignment.schema.json", "manifest.schema.json")
"""Files whose model's own docstring is their description (the others say it in their title)."""


def schema_document(name: str) -> dict[str, Any]:
    title, make = GENERATED[name]
    body = make()
    body.pop("title", None)
    description = body.pop("description", None)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://npuzzle-grader/schemas/{name}", "title": title,
            **({"description": description} if name in _DESCRIBED and description else {}), **body}


def schema_text(name: str) -> str:
    return json.dumps(schema_document(name), indent=2, ensure_ascii=False) + "\n"


def stale() -> list[str]:
    """The generated files whose committed text differs from the models'."""
    return [name for name in GENERATED
            if not (SCHEMAS / name).is_file() or (SCHEMAS / name).read_text(encoding="utf-8") != schema_text(name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.model.schemas", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the files from the models")
    args = parser.parse_args(argv)
    if args.write:
        for name in GENERATED:
            (SCHEMAS / name).write_text(schema_text(name), encoding="utf-8")
            print(f"wrote {SCHEMAS / name}")
        return 0
    drifted = stale()
    for name in drifted:
        print(f"{SCHEMAS / name}: differs from the models; run python -m grader.model.schemas --write",
              file=sys.stderr)
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())
