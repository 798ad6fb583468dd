"""A test set made self-contained for another machine: what its ``assignment.toml`` names goes with it.

An assignment may name its jars, drivers and extra files by an absolute path or an environment variable
(``[java.algs4] packaged = ["$ALGS4_JAR"]``), which only the TA's machine resolves. :func:`carry_testset` copies
the set and every such file or folder into it (``carried/<n>/<name>``), and rewrites ``assignment.toml`` to name
the copies by relative paths: the Gradescope zip and a visible-only export (a Classroom template) then grade as
the TA's machine does,
and no host path reaches a student's message. What cannot be carried is refused (exit 10) with the fix: a named
path that is not a file or folder, or an interpreter named by a path only the TA's machine has.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from grader.errors import SetupRefused
from grader.testsets.assignment import FILE_NAME, expand_variables, find_assignment, require_assignment

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

PATH_KEYS = (("extra_files",), ("java", "classpath"), ("java", "sources"), ("java", "algs4", "packaged"),
             ("java", "algs4", "unnamed"))
"""Every list of paths an assignment.toml may hold (grader.testsets.assignment reads the same keys)."""
CARRIED = "carried"
SYSTEM_PREFIXES = ("/usr/", "/bin/", "/opt/")
"""Where an interpreter named by its path may be on the grading image too (setup.sh installs into /usr)."""
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".journal")


def carry_testset(testset_dir: Path, target: Path) -> list[str]:
    """Copy the set to ``target`` with what its assignment names outside it; returns the paths carried in.

    Refuses (:class:`SetupRefused`) a set without ``assignment.toml``: the copy would grade on guesses.
    """
    root = Path(testset_dir).resolve()
    require_assignment(root)
    shutil.copytree(root, target, ignore=_SKIP)
    return carry_named_files(root, target)


def carry_named_files(testset_dir: Path, target: Path) -> list[str]:
    """Into ``target`` (a copy of the set, whole or in part): every file or folder the set's ``assignment.toml``
    names outside the set or through a variable, and the assignment rewritten to name them relatively.
    Returns the paths carried in (none for a set without an assignment)."""
    root = Path(testset_dir).resolve()
    source = find_assignment(root)
    if source is None:
        return []
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    carried: list[str] = []
    changed = False
    for keys in PATH_KEYS:
        values = _lookup(data, keys)
        if values is None:
            continue
        where = "$." + ".".join(keys)
        moved = [_carry(value, root, target, f"{where}[{index}]", str(source), carried)
                 for index, value in enumerate(values)]
        changed |= moved != values
        _lookup(data, keys[:-1])[keys[-1]] = moved
    _refuse_host_interpreter(data, str(source))
    if changed:  # paths named through a variable or outside the set: the copy names them relatively
        (target / FILE_NAME).write_text(
            f"# {FILE_NAME} of {root.name}, with the files it names outside the set carried into {CARRIED}/\n"
            + dumps(data), encoding="utf-8")
    return carried


def _lookup(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    holder: Any = data
    for key in keys:
        if not isinstance(holder, dict) or key not in holder:
            return None
        holder = holder[key]
    return holder


def _carry(value: str, root: Path, target: Path, where: str, source: str, carried: list[str]) -> str:
    path = (root / expand_variables(value, source, where)).resolve()
    if path.is_relative_to(root):
        # Inside the set it travels with it; a relative name keeps it found wherever the set is unpacked.
        return value if not value.startswith(("/", "~", "$")) else path.relative_to(root).as_posix()
    if not (path.is_file() or path.is_dir()):
        raise SetupRefused(f"{source}::{where}: {value!r} ({path}) is not a file or folder, so the build cannot "
                           "carry it; name the jar, driver or folder itself")
    destination = target / CARRIED / str(len(carried) + 1) / path.name
    destination.parent.mkdir(parents=True, exist_ok=True)
    try:
        if path.is_dir():
            shutil.copytree(path, destination, ignore=_SKIP)
        else:
            shutil.copyfile(path, destination)
    except OSError as exc:
        raise SetupRefused(f"{source}::{where}: {value!r} cannot be read to carry it into the build: "
                           f"{exc.strerror or exc}") from None
    carried.append(str(path))
    return destination.relative_to(target).as_posix()


def _refuse_host_interpreter(data: dict[str, Any], source: str) -> None:
    interpreter = str(data.get("python", {}).get("interpreter", ""))
    if interpreter.startswith(("/", "~", "$")) and not interpreter.startswith(SYSTEM_PREFIXES):
        raise SetupRefused(f"{source}::$.python.interpreter: {interpreter!r} is a path on this machine, which the "
                           "grading image does not have; name the interpreter instead (python3, or python2.7 "
                           "with setup.sh installing it)")


def dumps(data: dict[str, Any]) -> str:
    """TOML text for an assignment's data (strings, numbers, booleans, lists of them, nested tables)."""
    lines: list[str] = []
    _table(data, (), lines)
    return "\n".join(lines).strip() + "\n"


def _table(data: dict[str, Any], prefix: tuple[str, ...], lines: list[str]) -> None:
    plain = {k: v for k, v in data.items() if not isinstance(v, dict)}
    if prefix and plain:
        lines.append(f"\n[{'.'.join(prefix)}]")
    for key, value in plain.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in data.items():
        if isinstance(value, dict):
            _table(value, (*prefix, _key(key)), lines)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string
