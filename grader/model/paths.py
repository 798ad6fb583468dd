"""Paths an ``assignment.toml`` names, checked and resolved while the file is validated.

A path is written relative to the file's folder (``relpath``), or, for a library, also absolute or starting
with ``$VARIABLE``/``${VARIABLE}``/``~`` (``libpath``). With the validation context ``{"base": folder}`` each
is expanded, made absolute and must exist; without a context (a preset checked on its own, or code building
an assignment) it is kept as written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import ValidationInfo, WithJsonSchema
from pydantic.functional_validators import WrapValidator

from grader.model.base import config_error

RELPATH_TITLE = "a relative path inside the assignment folder (no leading / and no ..)"
LIBPATH_TITLE = (RELPATH_TITLE[:-1] + "), an absolute path, or a path starting with $VARIABLE or ${VARIABLE}")
RELPATH = r"^(?![/\\])(?!.*(^|[/\\])\.\.([/\\]|$)).+$"
LIBPATH = r"^(/|~|\$|(?![\\])(?!.*(^|[/\\])\.\.([/\\]|$)).+$)"
_VARIABLE_RE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def expand_variables(value: str) -> str:
    """``$NAME`` and ``${NAME}`` from the environment, and a leading ``~``; an unset variable is an error."""
    def value_of(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in os.environ:
            raise config_error(f"{value!r} names the environment variable {name}, which is not set")
        return os.environ[name]

    return os.path.expanduser(_VARIABLE_RE.sub(value_of, value))


def _resolver(pattern: str, title: str) -> Any:
    compiled = re.compile(pattern)

    def resolve(value: Any, handler: Any, info: ValidationInfo) -> Path:
        if isinstance(value, Path):
            return value
        if not isinstance(value, str) or not value:
            raise config_error(f"expected {title}, found {value!r}")
        context = info.context or {}
        if not context.get("trusted") and not compiled.match(value):
            raise config_error(f"expected {title}, found {value!r}")
        if "base" not in context:
            return Path(value)
        base = Path(context["base"])
        expanded = expand_variables(value)
        resolved = (base / expanded).resolve()
        if not resolved.exists():
            shown = f"{value!r}" + (f" ({expanded})" if expanded != value else "")
            raise config_error(f"{shown} does not exist (looked in {base})")
        return resolved
    return resolve


RelPath = Annotated[Path, WrapValidator(_resolver(RELPATH, RELPATH_TITLE)),
                    WithJsonSchema({"type": "string", "minLength": 1, "pattern": RELPATH, "title": RELPATH_TITLE})]
LibPath = Annotated[Path, WrapValidator(_resolver(LIBPATH, LIBPATH_TITLE)),
                    WithJsonSchema({"type": "string", "minLength": 1, "pattern": LIBPATH, "title": LIBPATH_TITLE})]
