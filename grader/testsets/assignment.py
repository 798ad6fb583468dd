"""``assignment.toml``: how one assignment's submissions are built, run and judged.

The file sits beside ``manifest.json`` in a test-set folder (or comes from
``--assignment``). Its keys, defaults and constraints are the records of :mod:`grader.model.assignment`
(``grader/schemas/assignment.schema.json`` is generated from them); every key is optional, so a missing
file means the CMPE 160 defaults (``files`` I/O,
blank-last goal). Errors read ``file::$.json.path: message``. Example::

    io = "argv"                       # files | argv | stdin | board-arg
    input_format = "rows"             # n-first (default: the N line, then the rows) | rows (no N line)
    answer = "stdout"                 # stdout | file (default: file for io = "files", else stdout)
    [limits]
    wall_seconds = 10
    memory_mb = 1024
    [scoring]
    suboptimal_credit = 0.5
    [output]
    unsolvable_wordings = ["Unsolvable puzzle", "No solution possible"]
    goal = "blank-last"
    format = "boards"                 # boards | moves (then: moves = "lines" | "path_to_goal" | "letters",
                                      #   move_names = "blank" | "tile")
    [python]
    interpreter = "python3"           # checks, runs and is named in hints for every Python submission
    packages = ["numpy>=1.24,<2"]     # one read-only environment per grading run, cached
    [java]
    classpath = ["lib/algs4.jar"]
    sources = ["driver/PuzzleChecker.java"]
    main_class = "PuzzleChecker"
    [java.algs4]                      # both editions of Princeton's library, chosen per submission
    packaged = ["$ALGS4_JAR"]         # an environment variable, an absolute path or a relative one
    unnamed = ["/opt/algs4-2014/stdlib.jar", "/opt/algs4-2014/algs4.jar"]

``preset = "coursera-princeton"`` (or ``cos226-campus``, ``cmpe160``) starts from a course preset
(:mod:`grader.testsets.presets`); the keys set here override it one by one.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic_core import PydanticCustomError

from grader.errors import ConfigError
from grader.model.assignment import Algs4Config, Assignment, CommandConfig, JavaConfig, Limits, Output, PythonConfig
from grader.model.loading import validated
from grader.model.paths import expand_variables as _expand
from grader.testsets import presets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["Algs4Config", "Assignment", "CommandConfig", "JavaConfig", "Limits", "Output", "PythonConfig",
           "assignment_from_dict", "find_assignment", "load_assignment", "require_assignment"]

FILE_NAME = "assignment.toml"
ASSIGNMENT = TypeAdapter(Assignment)

PLACEHOLDERS = frozenset({"input", "output", "memory_mb", "heap_mb", "classpath", "main_class", "build_dir",
                          "python", "sources", "entry", "board"})
_PLACEHOLDER_RE = re.compile(r"\{([^{}]*)\}")


def find_assignment(testset_dir: Path) -> Path | None:
    path = testset_dir / FILE_NAME
    return path if path.is_file() else None


def require_assignment(testset_dir: Path) -> Path:
    """The test set's ``assignment.toml``; a set without one is refused before grading, naming the fix.

    Grading on the defaults would run every submission as CMPE 160's (``input.txt`` to ``output.txt``): a
    class that reads its argument or standard input would all fail, with nothing saying why.
    """
    from grader.errors import SetupRefused

    path = find_assignment(testset_dir)
    if path is None:
        raise SetupRefused(
            f"{testset_dir}: the test set has no {FILE_NAME}, so nothing says how submissions read the puzzle "
            f"and where they answer. Write {testset_dir / FILE_NAME} (one line such as preset = \"cmpe160\" "
            "for input.txt -> output.txt, or io = \"argv\" / \"stdin\"; testcases/README.md shows each), "
            "or pass --assignment FILE")
    return path


def load_assignment(path: Path | None) -> Assignment:
    """Read and check an ``assignment.toml``; ``None`` gives the defaults."""
    if path is None:
        return Assignment()
    source = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(source, "$", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(source, "$", f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, "$", f"not valid TOML: {exc}") from None
    return assignment_from_dict(data, source, path.parent)


def assignment_from_dict(data: dict[str, Any], source: str, base: Path) -> Assignment:
    """Build an :class:`Assignment` from parsed TOML; ``base`` anchors relative paths.

    The file is checked as written first (its own paths must exist); then a ``preset`` is laid under it (its
    own paths are absolute) and the whole is read once more. Library paths (``[java] classpath``,
    ``[java.algs4]``) may be absolute or start with ``$VARIABLE``/``${VARIABLE}``, which must be set.
    """
    check_file(data, source, base)
    _check_commands(data, source)
    merged = presets.apply(data, source)
    if merged is data:
        return file_assignment(data, source, base)
    return file_assignment(merged, source, base, trusted=True)


def check_file(data: dict[str, Any], source: str, base: Path | None = None) -> None:
    """``data`` against the model, paths included when ``base`` is given (errors as ``file::$.path: message``)."""
    file_assignment(data, source, base)


def file_assignment(data: dict[str, Any], source: str, base: Path | None, trusted: bool = False) -> Assignment:
    """``data`` as an :class:`Assignment` read from ``source``; paths resolved against ``base`` when given.

    ``trusted``: the paths were checked as written already (a preset's are absolute by then)."""
    if "source" in data:  # a field of the record, not a key of the file
        raise ConfigError(source, "$", "unknown key 'source'")
    context = {**({"base": base} if base is not None else {}), **({"trusted": True} if trusted else {})}
    return validated(ASSIGNMENT, {**data, "source": source}, source, context)


def expand_variables(value: str, source: str, where: str) -> str:
    """``$NAME`` and ``${NAME}`` from the environment, and a leading ``~``; an unset variable is an error."""
    try:
        return _expand(value)
    except PydanticCustomError as exc:
        raise ConfigError(source, where, str(exc)) from None


def _check_commands(data: dict[str, Any], source: str) -> None:
    """Unknown ``{placeholders}`` in a command are a config error, not a failed run later."""
    for section in ("java", "python", "command"):
        for key in ("build", "run"):
            for index, item in enumerate(data.get(section, {}).get(key) or []):
                for name in _PLACEHOLDER_RE.findall(item):
                    if name not in PLACEHOLDERS:
                        raise ConfigError(source, f"$.{section}.{key}[{index}]",
                                          f"unknown placeholder {{{name}}} (known: "
                                          f"{', '.join(sorted(PLACEHOLDERS))})")
                    if name in ("sources", "entry") and item != f"{{{name}}}":
                        raise ConfigError(source, f"$.{section}.{key}[{index}]",
                                          f"{{{name}}} stands for several arguments, so it must be an item of its "
                                          f"own (found {item!r})")
                    if name == "main_class" and section == "command" and not data.get("java", {}).get("main_class"):
                        raise ConfigError(source, f"$.{section}.{key}[{index}]",
                                          "{main_class} in [command] is [java] main_class, which is not set: "
                                          "set it, or write the class name in the command")
