"""Course presets: the settings a known course's assignment needs, which an ``assignment.toml`` selects and
overrides key by key.

Each preset is a TOML file here (shipped as package data) with the same keys as ``assignment.toml``:
``coursera-princeton`` (argv input, ``No solution possible``), ``cos226-campus`` (argv input, ``Unsolvable
puzzle``, ``Board.isSolvable()``) and ``cmpe160`` (``input.txt`` to ``output.txt``, ``No solution found.``).
``preset = "cos226-campus"`` in an ``assignment.toml`` starts from that file; every key the assignment sets
replaces the preset's (tables are merged key by key, lists and values are replaced whole). Paths in a preset
are relative to this folder (the drivers in ``drivers/``), paths in the assignment to the assignment's folder.

May import :mod:`grader.errors` and :mod:`grader.model` only (it is read by the assignment model).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from grader.errors import ConfigError
from grader.model.assignment import Assignment
from grader.model.loading import validated

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

FOLDER = Path(__file__).resolve().parent
PATH_KEYS = (("extra_files",), ("java", "classpath"), ("java", "sources"))
"""Lists of paths a preset may hold, resolved against this folder before they are merged."""


def names() -> list[str]:
    """The presets shipped, by name."""
    return sorted(path.stem for path in FOLDER.glob("*.toml"))


def preset_path(name: str) -> Path:
    return FOLDER / f"{name}.toml"


def load(name: str, source: str) -> dict[str, Any]:
    """A preset's settings, its paths made absolute; ``source`` is the file that asked for it (for errors).

    Raises :class:`ConfigError` at ``$.preset`` for an unknown name, and names the preset file for a broken one.
    """
    path = preset_path(name)
    if name not in names():
        raise ConfigError(source, "$.preset", f"unknown preset {name!r} (known: {', '.join(names())})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(str(path), "$", f"cannot read the preset: {exc}") from None
    validated(TypeAdapter(Assignment), data, str(path))  # as written: its paths are resolved below
    for keys in PATH_KEYS:
        holder = data
        for key in keys[:-1]:
            holder = holder.get(key, {})
        if keys[-1] in holder:
            holder[keys[-1]] = [str((FOLDER / value).resolve()) for value in holder[keys[-1]]]
    return data


def merged(preset: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``overrides`` over ``preset``: tables merged key by key, anything else replaced whole."""
    out = dict(preset)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


def apply(data: dict[str, Any], source: str) -> dict[str, Any]:
    """An assignment's settings on top of the preset it names (``data`` itself when it names none)."""
    name = data.get("preset")
    if name is None:
        return data
    return merged(load(name, source), data)
