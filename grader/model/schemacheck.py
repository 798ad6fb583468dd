"""Validate data against one of the hand-written JSON Schemas, worded by the one translator.

The Gradescope and GitHub Classroom schemas in ``grader/schemas/`` describe other programs' formats, so they
are written by hand, not generated from a model; what we send those programs (and a result a TA hands to
``grade classroom summary``) is checked here. Each JSON Schema error is put in the shape of a pydantic error
and worded by :mod:`grader.model.loading`, so a TA reads ``file::$.json.path: message`` in the same words
whichever kind of schema found it. The generated schemas can be checked here too (the tests do).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match
from pydantic_core import ErrorDetails

from grader.errors import ConfigError
from grader.model import loading

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"

_TYPES = {"number": "float_type", "integer": "int_type", "string": "string_type", "boolean": "bool_type",
          "object": "dict_type", "array": "list_type", "null": "none_required"}
"""A JSON Schema type -> the pydantic error type the translator words (``expected a number, found ...``)."""
_BOUNDS = {"minimum": ("greater_than_equal", "ge"), "exclusiveMinimum": ("greater_than", "gt"),
           "maximum": ("less_than_equal", "le"), "exclusiveMaximum": ("less_than", "lt")}
_NAMES = {"number": "a number", "integer": "an integer", "string": "a string", "boolean": "true or false",
          "object": "an object", "array": "a list", "null": "null"}


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema from ``grader/schemas/`` by file name, e.g. ``"gradescope.schema.json"``."""
    text = (SCHEMAS / name).read_text(encoding="utf-8")
    return json.loads(text)


def schema_problems(data: Any, schema_name: str) -> list[tuple[str, str]]:
    """Every ``(json_path, message)`` that breaks the schema, in document order."""
    schema = load_schema(schema_name)
    validator = jsonschema.Draft202012Validator(schema)
    return loading.worded((detail for error in validator.iter_errors(data) for detail in _details(error)), schema)


def validate(data: Any, schema_name: str, source: str) -> None:
    """Raise :class:`ConfigError` for the first schema violation (in document order)."""
    problems = schema_problems(data, schema_name)
    if problems:
        path, message = problems[0]
        raise ConfigError(source, path, message)


def _error(kind: str, loc: tuple[int | str, ...], value: Any, message: str = "", **ctx: Any) -> ErrorDetails:
    return {"type": kind, "loc": loc, "msg": message, "input": value, "ctx": ctx}


def _alternatives(values: list[Any]) -> str:
    """``'a', 'b' or 'c'``, as pydantic names a literal's choices."""
    shown = [repr(value) if isinstance(value, str) else json.dumps(value) for value in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _details(error: jsonschema.ValidationError) -> Iterator[ErrorDetails]:
    """One JSON Schema error as the pydantic errors it amounts to (a missing or unknown key each one)."""
    # The fields below are set on every error iter_errors yields (the stubs also allow Unset, for hand-made ones).
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    loc = tuple(error.absolute_path)
    value: Any = error.instance
    wanted: Any = error.validator_value
    kind = str(error.validator)
    if kind == "additionalProperties":
        for key in sorted(set(value) - set(schema.get("properties", {}))):
            yield _error("extra_forbidden", (*loc, key), value[key])
    elif kind == "required":
        for key in wanted:
            if key not in value:
                yield _error("missing", (*loc, key), value)
    elif kind in ("enum", "const"):
        yield _error("literal_error", loc, value, expected=_alternatives(wanted if kind == "enum" else [wanted]))
    elif kind == "type":
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        if len(names) == 1 and names[0] in _TYPES:
            yield _error(_TYPES[names[0]], loc, value)
        else:
            either = " or ".join(_NAMES.get(name, name) for name in names)
            yield _error("config", loc, value, text=f"expected {either}, found {loading.found(value)}")
    elif kind in _BOUNDS:
        pydantic_kind, key = _BOUNDS[kind]
        yield _error(pydantic_kind, loc, value, **{key: wanted})
    elif kind in ("minItems", "maxItems"):
        bound = "min_length" if kind == "minItems" else "max_length"
        yield _error("too_short" if kind == "minItems" else "too_long", loc, value, **{bound: wanted},
                     actual_length=len(value))
    elif kind == "minLength" and wanted == 1:
        yield _error("string_too_short", loc, value, min_length=1)
    elif kind == "pattern":
        yield _error("string_pattern_mismatch", loc, value, pattern=wanted)
    elif kind in ("anyOf", "oneOf") and error.context:
        # None of the choices fits: the error of the choice that came closest says what to fix (not "expected
        # null" for a value of an optional key: that choice only says the key may be null).
        chosen = [sub for sub in error.context if not (sub.validator == "type" and sub.validator_value == "null")]
        yield from _details(best_match(chosen or error.context))
    else:
        yield _error("config", loc, value, text=error.message)
