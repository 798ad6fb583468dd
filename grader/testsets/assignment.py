"""``assignment.toml``: how one assignment's submissions are built, run and judged.

The file sits beside ``manifest.json`` in a test-set folder (or comes from
``--assignment``). It is checked against ``grader/schemas/assignment.schema.json``;
every key is optional, so a missing file means the CMPE 160 defaults (``files`` I/O,
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

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.errors import ConfigError
from grader.schemacheck import validate
from grader.testsets import presets
from grader.testsets.apiconfig import ApiConfig, api_from_dict
from solver.formats import DEFAULT_UNSOLVABLE_WORDINGS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

FILE_NAME = "assignment.toml"
SCHEMA = "assignment.schema.json"

PLACEHOLDERS = frozenset({"input", "output", "memory_mb", "heap_mb", "classpath", "main_class", "build_dir",
                          "python", "sources", "entry", "board"})
_PLACEHOLDER_RE = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Limits:
    """Per-run limits; ``wall_seconds`` is the default when a case sets no time limit."""

    wall_seconds: float = 10.0
    cpu_seconds: float | None = None
    memory_mb: int = 1024
    output_bytes: int = 1_000_000
    build_seconds: float = 120.0
    wall_cap_factor: float = 3.0
    rerun_margin: float = 0.15
    stop_after_tle: int | None = None
    """After this many TLE cases, a submission's remaining cases are TLE without running (None: run them all)."""

    @property
    def heap_mb(self) -> int:
        """Java's -Xmx: the memory limit less the JVM's own needs (thread stacks, code cache, metaspace).

        The runner caps a JVM's data segment at ``memory_mb``; a heap of the whole limit
        leaves no room for the JVM to start its threads.
        """
        return self.memory_mb - min(256, self.memory_mb // 2)


@dataclass(frozen=True)
class Algs4Config:
    """The jars of each edition of Princeton's library (:mod:`grader.intake.java.algs4`); empty: not configured."""

    packaged: tuple[Path, ...] = ()
    unnamed: tuple[Path, ...] = ()

    def editions(self) -> dict[str, tuple[Path, ...]]:
        return {name: jars for name, jars in (("packaged", self.packaged), ("unnamed", self.unnamed)) if jars}


@dataclass(frozen=True)
class JavaConfig:
    classpath: tuple[Path, ...] = ()
    sources: tuple[Path, ...] = ()
    main_class: str | None = None
    preferred_mains: tuple[str, ...] = ("Solver", "Main", "NPuzzle", "Puzzle")
    build: tuple[str, ...] | None = None
    run: tuple[str, ...] | None = None
    algs4: Algs4Config = field(default_factory=Algs4Config)


@dataclass(frozen=True)
class PythonConfig:
    interpreter: str = "python3"
    main_files: tuple[str, ...] = ("main.py", "solver.py", "solve.py", "puzzle.py", "npuzzle.py", "Solver.py")
    run: tuple[str, ...] | None = None
    packages: tuple[str, ...] = ()
    """pip requirement strings submissions may import (an environment built once per grading run)."""
    fallback: str | None = None
    """A second interpreter for submissions the first cannot compile (a class handing in Python 2 and 3)."""


@dataclass(frozen=True)
class CommandConfig:
    run: tuple[str, ...]
    build: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Assignment:
    """Everything ``assignment.toml`` declares, with defaults filled in and paths made absolute."""

    source: str = "<defaults>"
    name: str | None = None
    preset: str | None = None
    io: str = "files"
    input_format: str = "n-first"
    """``n-first`` (the N line, then the rows) or ``rows`` (the rows only): what a run's puzzle holds."""
    input_file: str = "input.txt"
    output_file: str = "output.txt"
    language: str = "auto"
    extra_files: tuple[Path, ...] = ()
    limits: Limits = field(default_factory=Limits)
    suboptimal_credit: float = 0.5
    strict: bool = False
    unsolvable_wordings: tuple[str, ...] = DEFAULT_UNSOLVABLE_WORDINGS
    blank_first: bool = False
    output_format: str = "boards"
    """``boards`` (the path's boards, the CMPE 160/Princeton format) or ``moves``."""
    moves_style: str = "lines"
    """With ``moves``: ``lines`` (UP per line), ``path_to_goal`` (``path_to_goal: [...]``) or ``letters`` (U D L R)."""
    move_names: str = "blank"
    """With ``moves``: a move names the direction the ``blank`` moves, or the ``tile``."""
    answer: str | None = None
    """Where the answer is: ``file`` (``output_file``) or ``stdout``; ``None``: a file for ``io = "files"``."""
    java: JavaConfig = field(default_factory=JavaConfig)
    python: PythonConfig = field(default_factory=PythonConfig)
    command: CommandConfig | None = None
    api: ApiConfig | None = None

    @property
    def answer_in_file(self) -> bool:
        """Whether the answer is read from ``output_file`` in the run folder (else from stdout)."""
        return self.answer == "file" if self.answer is not None else self.io == "files"

    def named_paths(self) -> tuple[Path, ...]:
        """Every file or folder the assignment names (extra files, jars, drivers), as absolute paths."""
        return (*self.extra_files, *self.java.classpath, *self.java.sources, *self.java.algs4.packaged,
                *self.java.algs4.unnamed)

    def to_json(self) -> dict[str, Any]:
        """The settings that shaped the grades, for results.json."""
        return {"source": self.source, "name": self.name, "preset": self.preset, "io": self.io,
                "language": self.language,
                "limits": {"wall_seconds": self.limits.wall_seconds, "cpu_seconds": self.limits.cpu_seconds,
                           "memory_mb": self.limits.memory_mb, "output_bytes": self.limits.output_bytes,
                           "wall_cap_factor": self.limits.wall_cap_factor,
                           "rerun_margin": self.limits.rerun_margin,
                           **({"stop_after_tle": self.limits.stop_after_tle}
                              if self.limits.stop_after_tle is not None else {})},
                "suboptimal_credit": self.suboptimal_credit, "strict": self.strict,
                "goal": "blank-first" if self.blank_first else "blank-last",
                "unsolvable_wordings": list(self.unsolvable_wordings),
                **self._moves_json(),
                **({"api": self.api.to_json()} if self.api is not None else {})}

    def _moves_json(self) -> dict[str, Any]:
        """The output settings beyond the defaults (so results of a boards assignment stay as they were)."""
        extra: dict[str, Any] = {}
        if self.output_format != "boards":
            extra["output"] = {"format": self.output_format, "moves": self.moves_style,
                               "move_names": self.move_names}
        if self.python.packages:
            extra["python_packages"] = list(self.python.packages)
        if self.input_format != "n-first":
            extra["input_format"] = self.input_format
        return extra


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

    A ``preset`` is applied first (its own paths are absolute); library paths (``[java] classpath``,
    ``[java.algs4]``) may be absolute or start with ``$VARIABLE``/``${VARIABLE}``, which must be set.
    """
    validate(data, SCHEMA, source)
    _check_commands(data, source)
    data = presets.apply(data, source)

    def paths(values: list[str], where: str) -> tuple[Path, ...]:
        out = []
        for index, value in enumerate(values):
            expanded = expand_variables(value, source, f"{where}[{index}]")
            resolved = (base / expanded).resolve()
            if not resolved.exists():
                shown = f"{value!r}" + (f" ({expanded})" if expanded != value else "")
                raise ConfigError(source, f"{where}[{index}]", f"{shown} does not exist (looked in {base})")
            out.append(resolved)
        return tuple(out)

    limits = data.get("limits", {})
    scoring = data.get("scoring", {})
    output = data.get("output", {})
    java = data.get("java", {})
    python = data.get("python", {})
    command = data.get("command")
    algs4 = java.get("algs4", {})
    defaults = Assignment()
    return Assignment(
        source=source,
        name=data.get("name"),
        preset=data.get("preset"),
        io=data.get("io", defaults.io),
        input_format=data.get("input_format", defaults.input_format),
        input_file=data.get("input_file", defaults.input_file),
        output_file=data.get("output_file", defaults.output_file),
        language=data.get("language", defaults.language),
        extra_files=paths(data.get("extra_files", []), "$.extra_files"),
        limits=Limits(
            wall_seconds=float(limits.get("wall_seconds", Limits.wall_seconds)),
            cpu_seconds=float(limits["cpu_seconds"]) if "cpu_seconds" in limits else None,
            memory_mb=int(limits.get("memory_mb", Limits.memory_mb)),
            output_bytes=int(limits.get("output_bytes", Limits.output_bytes)),
            build_seconds=float(limits.get("build_seconds", Limits.build_seconds)),
            wall_cap_factor=float(limits.get("wall_cap_factor", Limits.wall_cap_factor)),
            rerun_margin=float(limits.get("rerun_margin", Limits.rerun_margin)),
            stop_after_tle=int(limits["stop_after_tle"]) if "stop_after_tle" in limits else None),
        suboptimal_credit=float(scoring.get("suboptimal_credit", defaults.suboptimal_credit)),
        strict=bool(output.get("strict", False)),
        unsolvable_wordings=tuple(output.get("unsolvable_wordings", defaults.unsolvable_wordings)),
        blank_first=output.get("goal", "blank-last") == "blank-first",
        output_format=output.get("format", defaults.output_format),
        moves_style=output.get("moves", defaults.moves_style),
        move_names=output.get("move_names", defaults.move_names),
        answer=data.get("answer"),
        java=JavaConfig(
            classpath=paths(java.get("classpath", []), "$.java.classpath"),
            sources=paths(java.get("sources", []), "$.java.sources"),
            main_class=java.get("main_class"),
            preferred_mains=tuple(java.get("preferred_mains", JavaConfig.preferred_mains)),
            build=_argv(java.get("build")),
            run=_argv(java.get("run")),
            algs4=Algs4Config(packaged=paths(algs4.get("packaged", []), "$.java.algs4.packaged"),
                              unnamed=paths(algs4.get("unnamed", []), "$.java.algs4.unnamed"))),
        python=PythonConfig(
            interpreter=python.get("interpreter", PythonConfig.interpreter),
            main_files=tuple(python.get("main_files", PythonConfig.main_files)),
            run=_argv(python.get("run")),
            packages=tuple(python.get("packages", ())),
            fallback=python.get("fallback")),
        command=CommandConfig(run=tuple(command["run"]), build=_argv(command.get("build"))) if command else None,
        api=api_from_dict(data.get("api")),
    )


_VARIABLE_RE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def expand_variables(value: str, source: str, where: str) -> str:
    """``$NAME`` and ``${NAME}`` from the environment, and a leading ``~``; an unset variable is an error."""
    def value_of(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in os.environ:
            raise ConfigError(source, where, f"{value!r} names the environment variable {name}, which is not set")
        return os.environ[name]

    return os.path.expanduser(_VARIABLE_RE.sub(value_of, value))


def _argv(value: list[str] | None) -> tuple[str, ...] | None:
    return tuple(value) if value is not None else None


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
