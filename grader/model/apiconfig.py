"""The ``[api]`` table of ``assignment.toml``: the API tests of an assignment, their groups and weights.

Example (the Princeton assessment's weights; every key optional)::

    [api]
    points = 40                       # the API part's total, shared out by group weight
    seed = 2024                       # random boards; each failure names its size and this seed
    python_names = ["princeton", "snake_case", "cmpe160"]   # spellings tried, in order
    [api.weights]
    correctness = 60
    memory = 20
    timing = 10
    api = 5

The table's presence turns the API part on.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from grader.model.base import (
    UNIQUE,
    NonNegative,
    Positive,
    Record,
    Str,
    Unique,
    Whole,
    record,
)

GROUPS = ("correctness", "memory", "timing", "api")
Style = Literal["princeton", "snake_case", "cmpe160"]
STYLES: tuple[Style, ...] = ("princeton", "snake_case", "cmpe160")
Identifier = Annotated[Str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", title="a class name such as Board")]


@record(config=True)
class Weights(Record):
    """Each group's relative weight (the Coursera assessment's; its Compilation 5 % is the build here)."""

    correctness: NonNegative = 60.0
    memory: NonNegative = 20.0
    timing: NonNegative = 10.0
    api: NonNegative = 5.0


@record(config=True)
class ApiConfig(Record):
    """How the API part is graded."""

    points: NonNegative = Field(default=40.0, description="The API part's total, shared out by group weight.")
    weights: Weights = Weights()
    seed: Annotated[Whole, Field(ge=0)] = Field(default=2024, description="Random boards; each failure names its "
                                                                           "size and this seed.")
    languages: Annotated[tuple[Literal["java", "python"], ...], Field(min_length=1, json_schema_extra=UNIQUE),
                         Unique] = ("java", "python")
    python_names: Annotated[tuple[Style, ...],
                            Field(min_length=1, json_schema_extra=UNIQUE), Unique] = Field(
        default=STYLES, description="The method spellings tried in a Python submission, in order.")
    board_classes: Annotated[tuple[Identifier, ...], Field(min_length=1)] = ("Board", "Puzzle")
    solver_classes: Annotated[tuple[Identifier, ...], Field(min_length=1)] = ("Solver",)
    modules: tuple[Annotated[Str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_.]*$", title="a module name such as board")],
                   ...] = ()
    sizes: Annotated[tuple[Annotated[Whole, Field(ge=2, le=200)], ...], Field(min_length=1)] = (2, 3, 4, 5, 9, 10, 127)
    max_depth: Annotated[Whole, Field(ge=1, le=31)] = 31
    solver_max_moves: Annotated[Whole, Field(ge=0, le=80)] = 20
    solver_sizes: Annotated[tuple[Annotated[Whole, Field(ge=2, le=10)], ...],
                            Field(min_length=1, json_schema_extra=UNIQUE), Unique] = (2, 3, 4, 5)
    test_seconds: Annotated[Positive, Field(le=600)] = 10.0
    solver_seconds: Annotated[Positive, Field(le=600)] = 60.0
    run_seconds: Annotated[Positive, Field(le=3600)] = 300.0
    parallel: Annotated[Whole, Field(ge=1, le=8)] = 2
    skip: Annotated[tuple[Annotated[Str, Field(min_length=1)], ...], Field(json_schema_extra=UNIQUE), Unique] = ()

    def weight(self, group: str) -> float:
        return float(getattr(self.weights, group, 0.0))

    def to_json(self) -> dict[str, Any]:
        """The settings results.json records (what shaped the API part's points)."""
        return {"points": self.points, "weights": {group: self.weight(group) for group in GROUPS}, "seed": self.seed,
                "languages": list(self.languages), "python_names": list(self.python_names),
                "max_depth": self.max_depth, "solver_max_moves": self.solver_max_moves,
                "solver_sizes": list(self.solver_sizes),
                "test_seconds": self.test_seconds, "solver_seconds": self.solver_seconds, "parallel": self.parallel,
                "skip": list(self.skip)}
