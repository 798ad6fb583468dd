"""The results model: what grading produced, as typed records; ``results.json`` is their JSON.

Each record is declared once: its fields, defaults and constraints here; ``results.json`` is
:func:`results_json` of a :class:`GradingResults` and is read back by :func:`grader.model.loading.load_json`;
``grader/schemas/results.schema.json`` is generated from these classes (:mod:`grader.model.schemas`).
Reporters (table, CSV, feedback, JUnit, HTML, the integrations) read these objects, never the raw runs or
a raw dict. Order is deterministic: submissions by id, cases in manifest order.
"""

from __future__ import annotations

import abc
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    computed_field,
    field_serializer,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from grader.model import pathcode
from grader.model.apiresult import ApiResult
from grader.model.base import (
    Count,
    Flag,
    NonEmptyText,
    NonNegative,
    Record,
    Text,
    Whole,
    config_error,
    record,
)
from grader.model.manifest import Visibility
from grader.model.verdicts import SEVERITY, Verdict, total, worst

FORMAT_VERSION: Literal[2] = 2
"""2: printed paths coded (:mod:`grader.model.pathcode`) and a case's default values left out. Files of format 1
(paths as lists, every field written) are read alike; what this grader writes is always format 2."""

Tile = Annotated[Whole, Field(ge=0)]
Board = Annotated[tuple[Tile, ...], Field(min_length=4, description="A board, row-major with 0 as the blank.")]
_BOARD_SCHEMA = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 4}


TRUSTED = "trusted_paths"
"""A validation context key: the data is what this grader wrote itself (the journal it reads back), so a coded
path is kept coded, its boards decoded only when something looks at them (:class:`~grader.model.pathcode.Coded`);
elsewhere (a results.json given to ``grade merge`` or ``grade report``) a code that does not add up is named."""


def _board_problem(board: Any) -> str | None:
    # set(map(type, ...)) and min() run in C: every board of every printed path passes here
    if isinstance(board, (tuple, list)) and len(board) >= 4 and set(map(type, board)) == {int} and min(board) >= 0:
        return None
    shown = repr(list(board) if isinstance(board, tuple) else board)[:80]
    return f"expected a board of at least 4 integers >= 0, found {shown}"


def _coded(value: Mapping[str, Any], trusted: bool) -> pathcode.Coded:
    """A coded path (format 2), its shape checked; decoded once to check it adds up unless ``trusted``."""
    for key in value:
        if key not in ("first", "steps", "jumps"):
            raise config_error(f"unknown key {key!r} in a coded path (expected first, steps, jumps)", at=key)
    for key in ("first", "steps"):
        if key not in value:
            raise config_error("missing (a required key of a coded path)", at=key)
    problem = _board_problem(value["first"])
    if problem:
        raise config_error(problem, at="first")
    if not isinstance(value["steps"], str) or value["steps"].strip("UDLR*"):
        raise config_error(f"expected a string of U, D, L, R and *, found {str(value['steps'])[:80]!r}", at="steps")
    jumps = value.get("jumps", {})
    if not isinstance(jumps, Mapping) or not all(
            isinstance(k, str) and k.isdigit() and _board_problem(b) is None for k, b in jumps.items()):
        raise config_error("expected an object of step numbers to boards of at least 4 integers >= 0", at="jumps")
    if not trusted:
        try:
            pathcode.decode(value)
        except ValueError as exc:
            raise config_error(str(exc)) from None
    return pathcode.Coded(value)


def _path(value: Any, info: ValidationInfo) -> Sequence[tuple[int, ...]] | None:
    """A printed path: boards (format 1, and what a run gives), or their code (format 2). Boards are checked
    without copying them: the pipeline shares equal boards between results (a class prints the same boards
    thousands of times), which a validating copy would undo."""
    if value is None or isinstance(value, pathcode.Coded):
        return value
    if isinstance(value, Mapping):
        return _coded(value, trusted=bool(info.context and info.context.get(TRUSTED)))
    if not isinstance(value, (tuple, list)):
        raise PydanticCustomError("list_type", "Input should be a valid list")
    boards = value if isinstance(value, tuple) and all(type(board) is tuple for board in value) else tuple(
        tuple(board) if isinstance(board, (list, tuple)) else board for board in value)
    for index, board in enumerate(boards):
        problem = _board_problem(board)
        if problem:
            raise config_error(problem, at=index)
    return boards


def _path_json(path: Sequence[tuple[int, ...]] | None) -> Any:
    """The path as format 2 writes it (a code read back is written again as it is)."""
    return pathcode.encode(path)


_CODED_SCHEMA = {
    "type": "object", "required": ["first", "steps"], "additionalProperties": False,
    "description": ("The first board, then one letter per later board: U, D, L or R when it is the board before "
                    "with the blank moved that way (row-major, 0 the blank), '*' for any other board, stored whole "
                    "in jumps under its index (1 = the second board)."),
    "properties": {"first": _BOARD_SCHEMA, "steps": {"type": "string", "pattern": "^[UDLR*]*$"},
                   "jumps": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                             "additionalProperties": _BOARD_SCHEMA}}}
Path = Annotated[Sequence[tuple[int, ...]] | None, PlainValidator(_path), PlainSerializer(_path_json),
                 WithJsonSchema({"anyOf": [_CODED_SCHEMA, {"type": "array", "items": _BOARD_SCHEMA},
                                           {"type": "null"}]})]
Total = Annotated[float | int, WithJsonSchema({"type": "number", "minimum": 0})]
"""A sum of points as :func:`~grader.model.verdicts.total` gives it (``0`` for nothing, written as such)."""
SliceName = Annotated[str, Field(pattern=r"^[0-9]+/[0-9]+$")]


def _usual_runs(runs: int) -> bool:
    return runs == 1  # the usual case stays out of the file


def _none(value: Any) -> bool:
    return value is None


def _empty(value: Any) -> bool:
    return not value


def _visible(value: str) -> bool:
    return value == "visible"


@record
class CaseResult(Record):
    """One (submission, case) run: the verdict, the points and a message for the student.

    ``path`` holds the boards the program printed (row-major tiles), for replays; ``problems``
    every problem found (the first decided the verdict); ``notes`` the format deviations the
    lenient parser forgave. A field holding its default is left out of the JSON (format 2), and a
    reader puts the default back.
    """

    case: Text = Field(description="The case id from the manifest.")
    verdict: Verdict
    points: NonNegative
    max_points: NonNegative
    message: Text
    seconds: NonNegative = Field(description="Wall-clock seconds of the run.")
    visibility: Visibility = Field(default="visible", exclude_if=_visible)
    cpu_seconds: NonNegative | None = Field(default=None, exclude_if=_none)
    exit_code: Whole | None = Field(default=None, exclude_if=_none)
    signal: Whole | None = Field(default=None, exclude_if=_none)
    moves: Whole | None = Field(default=None, exclude_if=_none, description="K as printed in the header.")
    optimal_moves: Whole | None = Field(default=None, exclude_if=_none)
    solvable: Flag | None = Field(default=None, exclude_if=_none)
    problems: tuple[Text, ...] = Field(default=(), exclude_if=_empty, description=(
        "Every problem found, first one decided the verdict."))
    notes: tuple[Text, ...] = Field(default=(), exclude_if=_empty, description=(
        "Format deviations the lenient parser forgave."))
    path: Path = Field(default=None, exclude_if=_none, description=(
        "The boards the program printed, each row-major with 0 as the blank (for replays): coded (format 2), or "
        "one list per board (format 1, and a path whose first board has no blank or is not N x N)."))
    stderr: Text = Field(default="", exclude_if=_empty, description="The last lines of the program's stderr.")
    runs: Whole = Field(default=1, ge=0, le=2, exclude_if=_usual_runs, description=(
        "2 when the first run ended near its time limit and the case was run once more (the message says why); 0 "
        "when the case was not run because the submission had used its TLE budget ([limits] stop_after_tle); "
        "absent means 1."))

    @field_serializer("seconds")
    def _seconds(self, seconds: float) -> float:
        return round(seconds, 3)


class BuildRecord(BaseModel):
    """How a submission was built (:mod:`grader.intake.build`); only the keys the build set are written
    (an unbuilt submission's record is ``{}``, ``algs4`` only for a Java build against the library)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    language: Text = ""
    ok: Flag = True
    entry: Text | None = None
    verdict: Literal[Verdict.CE, Verdict.JE] | None = None
    message: Text = ""
    log: Text = ""
    seconds: NonNegative = 0.0
    algs4: Text | None = Field(default=None, description=(
        "The algs4 edition(s) the submission was compiled against ([java.algs4] in assignment.toml)."))
    left_out: tuple[Text, ...] = Field(default=(), description=(
        "Entries not copied (symbolic links, never followed), each a sentence naming it."))

    @model_serializer(mode="wrap")
    # No return type: the published schema stays the fields' (an annotated one would replace it).
    def _json(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        return {key: value for key, value in data.items() if key in self.model_fields_set}

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


@record(kw_only=False)
class SubmissionResult(Record):
    """One submission: its build and every case graded so far (``complete`` false after Ctrl-C).

    ``api`` holds its API tests (:mod:`grader.apitests`) when the assignment has an ``[api]``
    part; their points count in :attr:`score`, and ``max_score`` includes the part's.
    """

    id: Annotated[NonEmptyText, Field(description="The submission's folder or zip name (the student id).")]
    language: Literal["java", "python", "command", "unknown"]
    build: BuildRecord
    cases: tuple[CaseResult, ...]
    max_score: NonNegative
    complete: Flag = True
    source: Text = ""
    api: tuple[ApiResult, ...] = Field(default=(), description=(
        "The API tests (grader/apitests), when the assignment has an [api] part; their points count in score."))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def score(self) -> Total:
        return total([*(case.points for case in self.cases), *(test.points for test in self.api)])

    @property
    def api_passed(self) -> int:
        return sum(1 for test in self.api if test.passed)

    @computed_field(description="The worst case verdict.")  # type: ignore[prop-decorator]
    @property
    def verdict(self) -> Verdict | None:
        """The worst case verdict (the submission's overall verdict)."""
        return worst(case.verdict for case in self.cases)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> dict[Text, Annotated[Whole, Field(ge=1)]]:
        """Verdict -> number of cases, in severity order, only the verdicts that occur."""
        counter = Counter(case.verdict for case in self.cases)
        return {verdict.value: counter[verdict] for verdict in SEVERITY if counter[verdict]}

    @model_serializer(mode="wrap")
    # No return type: the published schema stays the fields' (an annotated one would replace it).
    def _json(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        order = ("id", "score", "max_score", "verdict", "counts", "complete", "language", "source", "build", "cases")
        out = {key: data[key] for key in order}
        if self.api:
            out["api"] = data["api"]
        return out


@record
class CaseEntry(Record):
    """A case of the test set as results.json lists it (the grading's own copy of the manifest's)."""

    id: Text
    points: NonNegative
    n: Whole = Field(ge=2)
    solvable: Flag
    optimal_moves: Count | None
    visibility: Visibility
    board: Board | None = Field(default=None, description=(
        "The case's input board, row-major with 0 as the blank (for replays)."))

    @model_serializer(mode="wrap")
    # No return type: the published schema stays the fields' (an annotated one would replace it).
    def _json(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        if self.board is None:
            data.pop("board", None)
        return data


@record
class Shard(Record):
    """The slice ``index/count`` of a run split with ``--shard``."""

    index: Whole = Field(ge=1)
    count: Whole = Field(ge=1)


class LazySubmissions(Sequence[SubmissionResult], abc.ABC):
    """A class's submissions, each made when it is asked for (:class:`grader.journal.Submissions` reads each
    back from the journal): the results of a large class are never all in memory at once. A reader goes over
    it once per report; a pass may make the submissions again. Equal to the tuple of its submissions."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, so not hashable as one would be


def _keep_lazy(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    return value if isinstance(value, LazySubmissions) else tuple(handler(value))


def _whole(value: Sequence[SubmissionResult]) -> tuple[SubmissionResult, ...]:
    return tuple(value)  # a lazy sequence is made whole only when the whole document is asked for


Submissions = Annotated[Sequence[SubmissionResult], WrapValidator(_keep_lazy),
                        PlainSerializer(_whole, return_type=tuple[SubmissionResult, ...])]
"""A tuple, or a :class:`LazySubmissions` kept as it is."""


@record(kw_only=False)
class GradingResults(Record):
    """A whole grading run (or a merge of its slices): ``results.json``."""

    testset: Annotated[Text, Field(description="The test set's name.")]
    testset_path: Text
    assignment: Annotated[dict[str, Any], Field(
        description="The settings that shaped the grades (from assignment.toml).")]
    cases: tuple[CaseEntry, ...]
    submissions: Submissions
    isolation: tuple[Text, ...] = Field(default=(), description="Sandbox layers active for the runs.")
    interrupted: Flag = Field(default=False, description="Ctrl-C stopped grading; only finished cases are listed.")
    strict: Flag = False
    api_points: NonNegative = Field(default=0.0, description=(
        "The API part's points (assignment.toml's [api]); included in max_score."))
    testset_hash: Text | None = Field(default=None, description=(
        "A hash of the cases (boards, answers, points, limits) and the assignment's settings: grade merge joins "
        "only results with the same one."))
    shard: Shard | None = Field(default=None, description=(
        "The slice (--shard i/n) this run graded; null for a whole run or a complete merge."))
    missing_slices: tuple[SliceName, ...] = Field(default=(), description=(
        "grade merge --allow-partial: the slices that were not there (their students are absent)."))
    format_version: Literal[1, 2] = Field(default=FORMAT_VERSION, description=(
        "2 codes printed paths (first board + moves) and leaves out a case's default values; 1 is read alike."))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def max_score(self) -> Total:
        return total([*(case.points for case in self.cases), self.api_points])

    @property
    def title(self) -> str:
        """What students and TAs call the work: the assignment's name, else the test set's."""
        return str(self.assignment.get("name") or self.testset or "")

    @model_serializer(mode="wrap")
    # No return type: the published schema stays the fields' (an annotated one would replace it).
    def _json(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        order = ("format_version", "testset", "testset_path", "interrupted", "strict", "isolation", "assignment",
                 "cases", "max_score", "submissions")
        out = {key: data[key] for key in order}
        out["format_version"] = FORMAT_VERSION  # a file read in format 1 is written in format 2
        if self.api_points:
            out["api_points"] = data["api_points"]
        if self.testset_hash is not None:
            out["testset_hash"] = data["testset_hash"]
        if self.testset_hash is not None or self.shard is not None:  # a run records its slice, null when whole
            out["shard"] = data["shard"]
        if self.missing_slices:
            out["missing_slices"] = data["missing_slices"]
        return out


RESULTS = TypeAdapter(GradingResults)


def results_json(results: GradingResults) -> dict[str, Any]:
    """``results.json``'s document (JSON types only)."""
    return RESULTS.dump_python(results, mode="json")
