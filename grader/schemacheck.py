"""Validate data against one of the grader's JSON Schemas, with check-jsonschema style errors.

Every config, manifest and results file has a schema in ``grader/schemas/``; this is the
one place their errors become ``file::$.json.path: message``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jsonschema

from grader.errors import ConfigError

SCHEMAS = Path(__file__).resolve().parent / "schemas"


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema from ``grader/schemas/`` by file name, e.g. ``"assignment.schema.json"``."""
    text = (SCHEMAS / name).read_text(encoding="utf-8")
    return json.loads(text)


def json_path(parts: Iterable[Any]) -> str:
    """``["limits", "memory_mb"]`` -> ``$.limits.memory_mb``; list indexes as ``[3]``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def schema_problems(data: Any, schema_name: str) -> list[tuple[str, str]]:
    """Every ``(json_path, message)`` that breaks the schema, in document order."""
    schema = load_schema(schema_name)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [(json_path(e.absolute_path), _message(e)) for e in errors]


def validate(data: Any, schema_name: str, source: str) -> None:
    """Raise :class:`ConfigError` for the first schema violation (in document order)."""
    problems = schema_problems(data, schema_name)
    if problems:
        path, message = problems[0]
        raise ConfigError(source, path, message)


def _message(error: jsonschema.ValidationError) -> str:
    # jsonschema's own text for additionalProperties lists the whole object; name the key instead.
    # The failing keyword belongs to an object schema (the stubs also allow the `true`/`false` schemas).
    # The fields below are set on every error iter_errors yields (the stubs also allow Unset, for hand-made ones).
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    instance: Any = error.instance
    value: Any = error.validator_value
    if error.validator == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(instance) - set(allowed))
        return f"unknown key {', '.join(map(repr, extra))} (expected one of: {', '.join(allowed)})"
    if error.validator == "enum":
        return f"expected one of {', '.join(map(repr, value))}, found {instance!r}"
    if error.validator in ("pattern", "not") and "title" in schema:
        return f"expected {schema['title']}, found {instance!r}"
    return error.message
