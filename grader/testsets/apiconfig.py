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

The table's presence turns the API part on; the schema checks its keys
(``grader/schemas/assignment.schema.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GROUPS = ("correctness", "memory", "timing", "api")
DEFAULT_WEIGHTS = (("correctness", 60.0), ("memory", 20.0), ("timing", 10.0), ("api", 5.0))
"""The Coursera assessment's weights (its Compilation 5 % is the build here)."""
STYLES = ("princeton", "snake_case", "cmpe160")


@dataclass(frozen=True)
class ApiConfig:
    """How the API part is graded. ``weights`` maps each group to its relative weight."""

    points: float = 40.0
    weights: tuple[tuple[str, float], ...] = DEFAULT_WEIGHTS
    seed: int = 2024
    languages: tuple[str, ...] = ("java", "python")
    python_names: tuple[str, ...] = STYLES
    board_classes: tuple[str, ...] = ("Board", "Puzzle")
    solver_classes: tuple[str, ...] = ("Solver",)
    modules: tuple[str, ...] = ()
    sizes: tuple[int, ...] = (2, 3, 4, 5, 9, 10, 127)
    max_depth: int = 31
    solver_max_moves: int = 20
    solver_sizes: tuple[int, ...] = (2, 3, 4, 5)
    test_seconds: float = 10.0
    solver_seconds: float = 60.0
    run_seconds: float = 300.0
    parallel: int = 2
    skip: tuple[str, ...] = field(default=())

    def weight(self, group: str) -> float:
        return dict(self.weights).get(group, 0.0)

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "weights": dict(self.weights), "seed": self.seed,
                "languages": list(self.languages), "python_names": list(self.python_names),
                "max_depth": self.max_depth, "solver_max_moves": self.solver_max_moves,
                "solver_sizes": list(self.solver_sizes),
                "test_seconds": self.test_seconds, "solver_seconds": self.solver_seconds, "parallel": self.parallel,
                "skip": list(self.skip)}


def api_from_dict(table: dict[str, Any] | None) -> ApiConfig | None:
    """The ``[api]`` table (already checked against the schema) as an :class:`ApiConfig`; ``None`` when absent."""
    if table is None:
        return None
    defaults = ApiConfig()
    weights = dict(defaults.weights)
    weights.update({key: float(value) for key, value in table.get("weights", {}).items()})
    return ApiConfig(
        points=float(table.get("points", defaults.points)),
        weights=tuple((group, weights[group]) for group in GROUPS),
        seed=int(table.get("seed", defaults.seed)),
        languages=tuple(table.get("languages", defaults.languages)),
        python_names=tuple(table.get("python_names", defaults.python_names)),
        board_classes=tuple(table.get("board_classes", defaults.board_classes)),
        solver_classes=tuple(table.get("solver_classes", defaults.solver_classes)),
        modules=tuple(table.get("modules", defaults.modules)),
        sizes=tuple(int(n) for n in table.get("sizes", defaults.sizes)),
        max_depth=int(table.get("max_depth", defaults.max_depth)),
        solver_max_moves=int(table.get("solver_max_moves", defaults.solver_max_moves)),
        solver_sizes=tuple(int(n) for n in table.get("solver_sizes", defaults.solver_sizes)),
        test_seconds=float(table.get("test_seconds", defaults.test_seconds)),
        solver_seconds=float(table.get("solver_seconds", defaults.solver_seconds)),
        run_seconds=float(table.get("run_seconds", defaults.run_seconds)),
        parallel=int(table.get("parallel", defaults.parallel)),
        skip=tuple(table.get("skip", defaults.skip)),
    )
