"""The one translator: a pydantic ``ValidationError`` becomes ``file::$.json.path: message``.

Every file the grader reads through the vocabulary (results.json, assignment.toml and its presets) is checked
here, so a TA sees one wording whatever the file: the JSON path of the value at fault, what was expected and
what was found (``$.limits.memory_mb: expected a value >= 16, found 8``). TOML tables use the same path style.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from grader.errors import ConfigError

T = TypeVar("T")

_TYPES = {"int": "an integer", "float": "a number", "string": "a string", "bool": "true or false",
          "list": "a list", "tuple": "a list", "dict": "an object (a table)", "model": "an object (a table)",
          "dataclass": "an object (a table)", "none_required": "null", "int_from_float": "an integer"}
_UNKNOWN = ("extra_forbidden", "unexpected_keyword_argument")
"""An unknown key: in a model, and in a dataclass record."""
_BOUNDS = {"greater_than_equal": ("ge", ">="), "greater_than": ("gt", ">"), "less_than_equal": ("le", "<="),
           "less_than": ("lt", "<")}


def json_path(loc: Sequence[int | str]) -> str:
    """``("limits", "memory_mb")`` -> ``$.limits.memory_mb``; list indexes as ``[3]``."""
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)


def found(value: Any) -> str:
    """How a message names a value it found: its JSON type, and the value itself when short."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "a list"
    shown = json.dumps(value, ensure_ascii=False, default=str)
    return shown if len(shown) <= 60 else shown[:60] + "…"


def _typed(value: Any) -> str:
    """A found value of the wrong type: its type, then the value (``a string "1"``)."""
    kind = {str: "a string", bool: "a boolean", type(None): "null", int: "an integer", float: "a number"}.get(
        type(value), "")
    shown = found(value)
    return f"{kind} {shown}" if kind and kind != "null" and not shown.startswith("a ") else shown


def message(error: ErrorDetails, schema: dict[str, Any] | None = None) -> str:
    """One sentence for one pydantic error: what was expected, what was found."""
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    if kind == "config":  # a validator's own sentence (grader.model.base.config_error)
        return str(ctx.get("text", error["msg"]))
    if kind == "missing":
        return "missing (a required key)"
    if kind in _UNKNOWN:
        allowed = _allowed(schema, error["loc"][:-1]) if schema else []
        return f"unknown key {error['loc'][-1]!r}" + (f" (expected one of: {', '.join(allowed)})" if allowed else "")
    if kind in ("enum", "literal_error"):
        expected = str(ctx.get("expected", ""))
        several = "," in expected or " or " in expected
        return f"expected {'one of ' if several else ''}{expected}, found {found(value)}"
    if kind in _BOUNDS:
        key, sign = _BOUNDS[kind]
        bound = ctx.get(key)
        shown = int(bound) if isinstance(bound, float) and bound.is_integer() else bound
        return f"expected a value {sign} {shown}, found {found(value)}"
    if kind in ("too_short", "too_long"):
        bound = "at least" if kind == "too_short" else "at most"
        limit = ctx.get("min_length" if kind == "too_short" else "max_length")
        return f"expected {bound} {limit} item(s), found {ctx.get('actual_length') or 'none'}"
    if kind in ("string_too_short", "string_too_long"):
        return f"expected a non-empty string, found {found(value)}" if ctx.get("min_length") == 1 else error["msg"]
    if kind == "string_pattern_mismatch":
        meaning = (_node(schema, error["loc"]) or {}).get("title") if schema else None
        return f"expected {meaning or 'a match for ' + repr(ctx.get('pattern'))}, found {found(value)}"
    if kind.endswith("_type") or kind.endswith("_parsing") or kind in _TYPES:
        wanted = _TYPES.get(kind.removesuffix("_type").removesuffix("_parsing"), kind)
        return f"expected {wanted}, found {_typed(value)}"
    if kind in ("value_error", "assertion_error") and "error" in ctx:
        return str(ctx["error"])
    return f"{error['msg']}, found {found(value)}"


def _node(schema: dict[str, Any] | None, loc: Sequence[int | str]) -> dict[str, Any] | None:
    """The schema of the value at ``loc`` (through ``$ref``, nullable ``anyOf`` and list items)."""
    node: Any = schema
    defs = (schema or {}).get("$defs", {})
    for part in [*loc, None]:
        # (An anyOf beside the node's own properties adds constraints, as a hand-written schema's may: not a choice.)
        while isinstance(node, dict) and ("$ref" in node or ("anyOf" in node and "properties" not in node)):
            node = defs[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else next(
                (option for option in node["anyOf"] if option.get("type") != "null"), {})
        if part is None or not isinstance(node, dict):
            break
        node = node.get("items") if isinstance(part, int) else node.get("properties", {}).get(part)
    return node if isinstance(node, dict) else None


def _allowed(schema: dict[str, Any] | None, loc: Sequence[int | str]) -> list[str]:
    """The keys the schema allows at ``loc`` (for an unknown key's message)."""
    return sorted((_node(schema, loc) or {}).get("properties", {}))


def _where(error: ErrorDetails) -> str:
    """An unknown key is named at the table that holds it (``$.limits: unknown key 'wall'``)."""
    loc = error["loc"][:-1] if error["type"] in _UNKNOWN else error["loc"]
    at = (error.get("ctx") or {}).get("at") if error["type"] == "config" else None
    loc = (*loc, at) if at is not None else loc
    return json_path(loc)


def problems(exc: ValidationError, schema: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """Every ``(json_path, message)`` of a validation error, ordered by path (so a wrong ``format_version`` comes
    before what that version lacks)."""
    return worded(exc.errors(include_url=False), schema)


def worded(details: Iterable[ErrorDetails], schema: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """Every ``(json_path, message)`` of ``details`` (pydantic's, or a JSON Schema's in their shape:
    :mod:`grader.model.schemacheck`), ordered by path; ``schema`` names the keys an unknown key's message lists."""
    errors = sorted(details, key=lambda error: [str(part) for part in error["loc"]])
    # A list's length is reported again when one of its items is bad: the item's own error says more.
    errors = [error for error in errors if error["type"] not in ("too_short", "too_long") or not any(
        other is not error and other["loc"][:len(error["loc"])] == error["loc"] for other in errors)]
    return [(_where(error), message(error, schema)) for error in errors]


def validated(adapter: TypeAdapter[T], data: Any, source: str, context: dict[str, Any] | None = None) -> T:
    """``data`` (parsed JSON or TOML) as the adapter's type; the first problem raises :class:`ConfigError`
    naming ``source`` and the JSON path. ``context`` reaches the validators (an assignment's folder)."""
    try:
        return adapter.validate_python(data, context=context)
    except ValidationError as exc:
        path, text = problems(exc, adapter.json_schema())[0]
        raise ConfigError(source, path, text) from None


def load_json(path: Path, adapter: TypeAdapter[T]) -> T:
    """A JSON file, parsed and validated (errors as ``file::$.path: message``).

    Python's parser reads it (a student id may hold an escaped lone surrogate, which pydantic's refuses)."""
    source = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(source, "$", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(source, "$", f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(source, "$", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    return validated(adapter, data, source)
