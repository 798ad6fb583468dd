"""``manifest.json``: a test set's cases as typed records, the one definition the loader checks files against
(:func:`grader.testsets.model.load_testset`) and ``grader/schemas/manifest.schema.json`` is generated from.

Rules between cases (unique ids and input files) and the input files themselves are checked by the loader.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, model_validator

from grader.model.base import (
    UNIQUE,
    Count,
    Flag,
    NonNegative,
    Positive,
    Record,
    Str,
    Unique,
    Whole,
    config_error,
    record,
)

FORMAT_VERSION = 1
GOALS = ("blank-last", "blank-first")
"""Where the blank sits in the goal a set's answers were certified for; the first is the default."""
Visibility = Literal["visible", "hidden", "after_due_date", "after_published"]
Name = Annotated[Str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=100)]
_SOLVABLE_NEEDS_ANSWER = {  # the rule _answer_iff_solvable enforces, for readers of the published schema
    "if": {"properties": {"solvable": {"const": True}}, "required": ["solvable"]},
    "then": {"required": ["optimal_moves"]}, "else": {"not": {"required": ["optimal_moves"]}}}


@record(config=True)
class ManifestCase(Record):
    """One case as the manifest lists it: a puzzle input and its certified answer."""

    id: Annotated[Name, Field(title="an id of letters, digits, '.', '_' and '-', starting with a letter or digit")]
    input: Annotated[Str, Field(
        min_length=1, pattern=r"^(?![/\\])(?![A-Za-z]:)(?!.*\\)(?!(.*/)?\.\.?(/|$))(?!.*//).+$",
        title="a path relative to the set folder, with '/' separators and no '..', '.' or leading '/'",
        description="Path of the puzzle input file, relative to the set folder.")]
    n: Annotated[Whole, Field(ge=2, le=100)]
    solvable: Flag
    optimal_moves: Count | None = Field(default=None, description=(
        "Certified optimal move count; required iff solvable."))
    points: NonNegative = Field(description="The case's points.")
    visibility: Visibility = Field(description="When students see the case's result.")
    time_limit_seconds: Positive | None = Field(default=None, description=(
        "Overrides the assignment's default time limit."))
    tags: Annotated[tuple[Annotated[Str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9:._+-]*$", title=(
        "a tag of letters, digits and ':._+-', with no spaces"))], ...], Field(json_schema_extra=UNIQUE), Unique] = ()
    source: Str | None = Field(default=None, description=(
        "Where the board came from (an imported file name, a generator rule)."))
    description: Str | None = None

    @model_validator(mode="after")
    def _answer_iff_solvable(self) -> ManifestCase:
        if self.solvable and self.optimal_moves is None:
            raise config_error("a solvable case needs optimal_moves (the certified optimal move count)",
                               at="optimal_moves")
        if not self.solvable and self.optimal_moves is not None:
            raise config_error(f"an unsolvable case must not have optimal_moves (found {self.optimal_moves})",
                               at="optimal_moves")
        return self


@record(config=True)
class Manifest(Record):
    """The cases of one test set. Every solvable case carries its certified optimal move count; ``grade testcases
    validate`` re-derives them."""

    format_version: Literal[1] = Field(description="Version of this manifest format.")
    name: Annotated[Name, Field(title="a name of letters, digits, '.', '_' and '-', starting with a letter or digit",
                                description="Short name of the set.")]
    cases: Annotated[tuple[ManifestCase, ...], Field(min_length=1)]
    description: Str = ""
    source: Str | None = Field(default=None, description=(
        "Where the cases come from (a generator seed, an imported folder)."))
    goal: Literal["blank-last", "blank-first"] = Field(default="blank-last", description=(
        "The goal every answer was certified for: blank-last (1 2 ... 0) or blank-first (0 1 2 ...). It must be "
        "the assignment's [output] goal."))


MANIFEST = TypeAdapter(Manifest)


def manifest_schema() -> dict[str, Any]:
    """The published schema: the records', with the solvable/optimal_moves rule spelled out for other readers."""
    schema = MANIFEST.json_schema()
    schema["$defs"]["ManifestCase"].update(_SOLVABLE_NEEDS_ANSWER)
    return schema
