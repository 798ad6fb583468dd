"""``assignment.toml`` as typed records: how one assignment's submissions are built, run and judged.

Each key's type, default, constraint and description is stated here once: the file is validated against these
classes (:func:`grader.testsets.assignment.load_assignment`), and ``grader/schemas/assignment.schema.json`` is
generated from them. The records mirror the file's tables (``[limits]``, ``[scoring]``, ``[output]``,
``[java]``, ``[python]``, ``[command]``, ``[api]``); :class:`Assignment` also names the settings the grader
reads most by one word (``assignment.blank_first``, ``assignment.suboptimal_credit``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from grader.model.apiconfig import ApiConfig
from grader.model.base import (
    UNIQUE,
    Flag,
    NonNegative,
    Positive,
    Record,
    Str,
    Unique,
    Whole,
    record,
)
from grader.model.paths import LibPath, RelPath
from solver.formats import DEFAULT_UNSOLVABLE_WORDINGS

Argv = Annotated[tuple[Annotated[Str, Field(min_length=1)], ...], Field(min_length=1)]
FileName = Annotated[Str, Field(pattern=r"^(?!\.\.?$)[^/\\]+$", title="a plain file name (no folder)")]
RelPaths = Annotated[tuple[RelPath, ...], Field(json_schema_extra=UNIQUE), Unique]
LibPaths = Annotated[tuple[LibPath, ...], Field(json_schema_extra=UNIQUE), Unique]
Seconds = Annotated[Positive, Field(le=3600)]


@record(config=True)
class Limits(Record):
    """Per-run limits; ``wall_seconds`` is the default when a case sets no time limit."""

    wall_seconds: Seconds = Field(default=10.0, description=(
        "The time limit per run, judged on the CPU time of the whole run (all its processes); a case's "
        "time_limit_seconds in the manifest overrides it. The wall clock stops a run at wall_cap_factor times "
        "the limit."))
    cpu_seconds: Seconds | None = Field(default=None, description=(
        "The CPU time limit of every run, whatever the case's time limit (default: the case's time limit)."))
    memory_mb: Annotated[Whole, Field(ge=16, le=65536)] = 1024
    output_bytes: Annotated[Whole, Field(ge=1024, le=1 << 30)] = 1_000_000
    build_seconds: Seconds = 120.0
    wall_cap_factor: Annotated[NonNegative, Field(ge=1, le=100)] = Field(default=3.0, description=(
        "The wall-clock cap of a run, as a multiple of its time limit (at least 5 s more than the limit): it stops "
        "programs that wait or sleep. It counts only the time the run ran or chose to wait, not the time it "
        "waited for a busy CPU (docs/performance.md)."))
    rerun_margin: Annotated[NonNegative, Field(le=1)] = Field(default=0.15, description=(
        "How far past its CPU limit the sandbox lets a run go before stopping it, so what it measured is plainly "
        "over the limit. Only where the kernel does not report the time a run waits for a CPU: a run that ends by "
        "itself within this fraction above its limit (or that the wall cap stops after it used half its limit) is "
        "run once more before it is called TLE."))
    stop_after_tle: Annotated[Whole, Field(ge=1, le=100_000)] | None = Field(default=None, description=(
        "After this many TLE cases, a submission's remaining cases are TLE without running (off by default)."))

    @property
    def heap_mb(self) -> int:
        """Java's -Xmx: the memory limit less the JVM's own needs (thread stacks, code cache, metaspace).

        The runner caps a JVM's data segment at ``memory_mb``; a heap of the whole limit
        leaves no room for the JVM to start its threads.
        """
        return self.memory_mb - min(256, self.memory_mb // 2)


@record(config=True)
class Scoring(Record):
    suboptimal_credit: Annotated[NonNegative, Field(le=1)] = Field(default=0.5, description=(
        "The share of a case's points a legal but longer-than-optimal path earns."))


Wording = Annotated[Str, Field(pattern=r"\S", title="a wording with a visible character")]


@record(config=True)
class Output(Record):
    """How an answer is read and judged."""

    strict: Flag = Field(default=False, description="Refuse what the lenient parser would forgive (PE).")
    unsolvable_wordings: Annotated[tuple[Wording, ...], Field(min_length=1, json_schema_extra=UNIQUE), Unique] = \
        DEFAULT_UNSOLVABLE_WORDINGS
    goal: Literal["blank-last", "blank-first"] = "blank-last"
    format: Literal["boards", "moves"] = Field(default="boards", description=(
        "boards: the path's boards (the CMPE 160/Princeton format); moves: the moves."))
    moves: Literal["lines", "path_to_goal", "letters"] = Field(default="lines", description=(
        "With format = moves: lines (UP per line), path_to_goal (path_to_goal: [...]) or letters (U D L R)."))
    move_names: Literal["blank", "tile"] = Field(default="blank", description=(
        "With format = moves: a move names the direction the blank moves, or the tile."))


@record(config=True)
class Algs4Config(Record):
    """The jars of each edition of Princeton's library (:mod:`grader.intake.java.algs4`); empty: not configured."""

    packaged: LibPaths = ()
    unnamed: LibPaths = ()

    def editions(self) -> dict[str, tuple[Path, ...]]:
        return {name: jars for name, jars in (("packaged", self.packaged), ("unnamed", self.unnamed)) if jars}


@record(config=True)
class JavaConfig(Record):
    classpath: LibPaths = ()
    algs4: Algs4Config = Algs4Config()
    sources: RelPaths = ()
    main_class: Annotated[Str, Field(pattern=r"^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$",
                                     title="a Java class name such as Solver or board.Solver")] | None = None
    preferred_mains: tuple[Annotated[Str, Field(min_length=1)], ...] = ("Solver", "Main", "NPuzzle", "Puzzle")
    build: Argv | None = None
    run: Argv | None = None


Requirement = Annotated[Str, Field(pattern=r"^[A-Za-z0-9][^\s;]*( *[<>=!~,.*A-Za-z0-9]+)*$",
                                   title="a pip requirement such as numpy>=1.24,<2")]


@record(config=True)
class PythonConfig(Record):
    interpreter: Annotated[Str, Field(min_length=1)] = Field(default="python3", description=(
        "Checks, runs and is named in hints for every Python submission."))
    fallback: Annotated[Str, Field(min_length=1)] | None = Field(default=None, description=(
        "A second interpreter for submissions the first cannot compile (a class handing in Python 2 and 3)."))
    main_files: Annotated[tuple[FileName, ...], Field(min_length=1)] = (
        "main.py", "solver.py", "solve.py", "puzzle.py", "npuzzle.py", "Solver.py")
    run: Argv | None = None
    packages: Annotated[tuple[Requirement, ...], Field(json_schema_extra=UNIQUE), Unique] = Field(
        default=(), description=(
        "pip requirement strings submissions may import (an environment built once per grading run)."))


@record(config=True)
class CommandConfig(Record):
    run: Argv
    build: Argv | None = None


@record(config=True)
class Assignment(Record):
    """Everything ``assignment.toml`` declares, with defaults filled in and paths made absolute."""

    source: SkipJsonSchema[Str] = Field(default="<defaults>", exclude=True,
                                        description="The file it was read from (not a key of the file).")
    format_version: Literal[1] = 1
    name: Annotated[Str, Field(min_length=1)] | None = Field(default=None, description="The assignment's name.")
    preset: Annotated[Str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", title=(
        "a preset name such as coursera-princeton, cos226-campus or cmpe160"))] | None = Field(
        default=None, description="A course preset to start from (grader/testsets/presets/); every key set in "
                                  "this file overrides the preset's (tables key by key).")
    io: Literal["files", "argv", "stdin", "board-arg"] = Field(default="files", description=(
        "files: input.txt in the working folder, answer in output.txt (CMPE 160); argv: the input path as the "
        "first argument, answer on stdout (Princeton); stdin: input on stdin, answer on stdout; board-arg: the "
        "board as one comma-separated argument at {board} in the run command (else last), answer on stdout."))
    input_format: Literal["n-first", "rows"] = Field(default="n-first", description=(
        "n-first: the size N on the first line, then the rows; rows: the board's rows only."))
    answer: Literal["stdout", "file"] | None = Field(default=None, description=(
        "Where the answer is read: stdout, or file (output_file). Default: file for io = files, else stdout."))
    input_file: FileName = "input.txt"
    output_file: FileName = "output.txt"
    language: Literal["auto", "java", "python", "command"] = "auto"
    extra_files: RelPaths = Field(default=(), description="Copied into every submission before it is built.")
    limits: Limits = Limits()
    scoring: Scoring = Scoring()
    output: Output = Output()
    java: JavaConfig = JavaConfig()
    python: PythonConfig = PythonConfig()
    api: ApiConfig | None = Field(default=None, description=(
        "The API tests (grader/apitests): Board and Solver method by method. The table's presence turns them on."))
    command: CommandConfig | None = None

    @property
    def suboptimal_credit(self) -> float:
        return self.scoring.suboptimal_credit

    @property
    def strict(self) -> bool:
        return self.output.strict

    @property
    def unsolvable_wordings(self) -> tuple[str, ...]:
        return self.output.unsolvable_wordings

    @property
    def blank_first(self) -> bool:
        return self.output.goal == "blank-first"

    @property
    def output_format(self) -> str:
        return self.output.format

    @property
    def moves_style(self) -> str:
        return self.output.moves

    @property
    def move_names(self) -> str:
        return self.output.move_names

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
        limits = self.limits
        return {"source": self.source, "name": self.name, "preset": self.preset, "io": self.io,
                "language": self.language,
                "limits": {"wall_seconds": limits.wall_seconds, "cpu_seconds": limits.cpu_seconds,
                           "memory_mb": limits.memory_mb, "output_bytes": limits.output_bytes,
                           "wall_cap_factor": limits.wall_cap_factor, "rerun_margin": limits.rerun_margin,
                           **({"stop_after_tle": limits.stop_after_tle} if limits.stop_after_tle is not None else {})},
                "suboptimal_credit": self.suboptimal_credit, "strict": self.strict, "goal": self.output.goal,
                "unsolvable_wordings": list(self.unsolvable_wordings), **self._moves_json(),
                **({"api": self.api.to_json()} if self.api is not None else {})}

    def _moves_json(self) -> dict[str, Any]:
        """The output settings beyond the defaults (so results of a boards assignment stay as they were)."""
        extra: dict[str, Any] = {}
        if self.output_format != "boards":
            extra["output"] = {"format": self.output_format, "moves": self.moves_style, "move_names": self.move_names}
        if self.python.packages:
            extra["python_packages"] = list(self.python.packages)
        if self.input_format != "n-first":
            extra["input_format"] = self.input_format
        return extra
