"""A test set on disk: ``testcases/<set>/manifest.json`` and the puzzle files it names.

:func:`load_testset` is the one reader the grader uses. It checks the manifest against its model
(:mod:`grader.model.manifest`, from which ``grader/schemas/manifest.schema.json`` is generated) and a few
rules a schema cannot state (unique
ids, input paths inside the set folder, the input files exist), and returns a
:class:`CaseSet`. Deeper checks (file format, solvability, re-derived optimal lengths,
duplicate boards, unknown files) are ``grade testcases validate``
(:mod:`grader.testsets.validate`).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import ValidationError

from grader.errors import CaseFileError, ConfigError
from grader.model.loading import problems
from grader.model.manifest import FORMAT_VERSION, GOALS, Visibility, manifest_schema
from grader.model.manifest import MANIFEST as MANIFEST_MODEL

__all__ = ["FORMAT_VERSION", "GOALS", "Case", "CaseSet", "load_testset", "schema_problems"]

MANIFEST = "manifest.json"
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


@dataclass(frozen=True)
class Case:
    """One test case: a puzzle input and its certified answer.

    ``optimal_moves`` is ``None`` exactly when ``solvable`` is false. ``time_limit_seconds``
    overrides the assignment's default when set. ``input`` is the path as the manifest
    writes it (relative to the set folder), ``input_path`` the resolved file.
    """

    id: str
    input_path: Path
    n: int
    solvable: bool
    optimal_moves: int | None
    points: float
    visibility: Visibility
    time_limit_seconds: float | None
    tags: tuple[str, ...]
    input: str = ""
    source: str | None = None
    description: str | None = None

    @property
    def hard(self) -> bool:
        """Marked as one of the set's hardest cases (tag ``hard``)."""
        return "hard" in self.tags


@dataclass(frozen=True)
class CaseSet:
    """A loaded test set: its folder, name and cases in manifest order."""

    root: Path
    name: str
    cases: tuple[Case, ...]
    description: str = ""
    source: str | None = None
    manifest_path: Path | None = None
    goal: str = "blank-last"
    """The goal every answer was certified for: ``blank-last`` (1 2 … 0) or ``blank-first`` (0 1 2 …)."""

    def __iter__(self) -> Iterator[Case]:
        return iter(self.cases)

    def __len__(self) -> int:
        return len(self.cases)

    def by_id(self, case_id: str) -> Case:
        for case in self.cases:
            if case.id == case_id:
                return case
        raise KeyError(case_id)

    def visible(self) -> tuple[Case, ...]:
        return tuple(case for case in self.cases if case.visibility == "visible")

    @property
    def total_points(self) -> float:
        return sum(case.points for case in self.cases)



def schema_problems(data: Any, file: str) -> list[ConfigError]:
    """Every problem of a parsed manifest against its model (:mod:`grader.model.manifest`), in document order."""
    try:
        MANIFEST_MODEL.validate_python(data)
    except ValidationError as exc:
        return [ConfigError(file, path, text) for path, text in problems(exc, _schema())]
    return []


@functools.cache
def _schema() -> dict[str, Any]:
    return manifest_schema()


def _sets_below(folder: Path) -> str:
    """A folder of test sets (``testcases/``) given for one: the sets it holds, to name one of."""
    try:
        sets = sorted(child.name for child in folder.iterdir() if (child / "manifest.json").is_file())
    except OSError:
        return ""
    if not sets:
        return ""
    return f"; this folder holds the test sets {', '.join(sets)}: name one, e.g. --testcases {folder / sets[0]}"


def read_manifest_json(path: Path) -> Any:
    """Parse a manifest file; bad JSON becomes a ConfigError naming the line and column."""
    file = str(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(file, "$", "no manifest here (expected a manifest.json)" + _sets_below(path.parent)) from None
    except IsADirectoryError:
        raise ConfigError(file, "$", "expected a manifest file, found a directory") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(file, "$", f"expected UTF-8 JSON, found byte 0x{exc.object[exc.start]:02x} "
                                     f"at offset {exc.start}") from None
    except OSError as exc:
        raise ConfigError(file, "$", f"cannot read: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(file, "$", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def rule_problems(data: dict[str, Any], file: str, indexes: list[int] | None = None) -> list[ConfigError]:
    """Rules beyond the schema: unique ids and unique input files.

    Assumes the entries passed the schema; ``indexes`` gives each entry's position in the
    manifest when only some of its cases are passed.
    """
    problems = []
    first_id: dict[str, int] = {}
    first_input: dict[str, int] = {}
    for position, case in enumerate(data["cases"]):
        index = indexes[position] if indexes is not None else position
        where = f"$.cases[{index}]"
        if case["id"] in first_id:
            problems.append(ConfigError(file, f"{where}.id", f"duplicate id {case['id']!r} "
                                        f"(also $.cases[{first_id[case['id']]}].id)"))
        first_id.setdefault(case["id"], index)
        key = str(PurePosixPath(case["input"]))
        if key in first_input:
            problems.append(ConfigError(file, f"{where}.input", f"input {case['input']!r} is also used by "
                                        f"$.cases[{first_input[key]}]"))
        first_input.setdefault(key, index)
    return problems


def resolve_root(path: Path) -> tuple[Path, Path]:
    """(set folder, manifest file) for a set folder or a manifest file path."""
    path = Path(path)
    if path.is_dir() or path.suffix.lower() != ".json":
        return path, path / MANIFEST
    return path.parent, path


def build_case(root: Path, entry: dict[str, Any]) -> Case:
    limit = entry.get("time_limit_seconds")
    return Case(
        id=entry["id"],
        input_path=root / PurePosixPath(entry["input"]),
        n=entry["n"],
        solvable=entry["solvable"],
        optimal_moves=entry.get("optimal_moves"),
        points=float(entry["points"]),
        visibility=entry["visibility"],
        time_limit_seconds=float(limit) if limit is not None else None,
        tags=tuple(entry.get("tags", ())),
        input=entry["input"],
        source=entry.get("source"),
        description=entry.get("description"),
    )


def load_testset(path: Path) -> CaseSet:
    """Load and check a test set from its folder (or its manifest.json).

    Raises :class:`ConfigError` (``file::$.json.path: message``) for bad JSON, a schema
    violation or a duplicate id, and :class:`CaseFileError` for a missing input file.
    """
    root, manifest = resolve_root(Path(path))
    file = str(manifest)
    data = read_manifest_json(manifest)
    problems = schema_problems(data, file)
    if not problems:
        problems = rule_problems(data, file)
    if problems:
        raise problems[0]
    cases = tuple(build_case(root, entry) for entry in data["cases"])
    for index, case in enumerate(cases):
        if not case.input_path.is_file():
            found = "a directory" if case.input_path.is_dir() else "no such file"
            raise CaseFileError(f"{file}::$.cases[{index}].input: case {case.id!r} needs the input file "
                                f"{case.input_path}, found {found}")
    return CaseSet(root=root, name=data["name"], cases=cases, description=data.get("description", ""),
                   goal=data.get("goal", GOALS[0]),
                   source=data.get("source"), manifest_path=manifest)


def manifest_entry(case: Case) -> dict[str, Any]:
    """A case as a manifest entry (the inverse of :func:`build_case`), keys in the documented order."""
    entry: dict[str, Any] = {"id": case.id, "input": case.input, "n": case.n, "solvable": case.solvable}
    if case.solvable:
        entry["optimal_moves"] = case.optimal_moves
    entry["points"] = int(case.points) if float(case.points).is_integer() else case.points
    entry["visibility"] = case.visibility
    if case.time_limit_seconds is not None:
        limit = case.time_limit_seconds
        entry["time_limit_seconds"] = int(limit) if float(limit).is_integer() else limit
    entry["tags"] = list(case.tags)
    if case.source:
        entry["source"] = case.source
    if case.description:
        entry["description"] = case.description
    return entry


def dump_manifest(name: str, cases: list[Case] | tuple[Case, ...], description: str = "",
                  source: str | None = None, goal: str = "blank-last") -> str:
    """The manifest.json text for a set: one case per line, so diffs stay readable.

    ``goal`` is written only when it is not the default, so blank-last sets keep their bytes.
    """
    head: dict[str, Any] = {"format_version": FORMAT_VERSION, "name": name}
    if description:
        head["description"] = description
    if source:
        head["source"] = source
    if goal != GOALS[0]:
        head["goal"] = goal
    lines = ["{"]
    lines += [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in head.items()]
    lines.append('  "cases": [')
    entries = [json.dumps(manifest_entry(case), ensure_ascii=False) for case in cases]
    lines += [f"    {entry}{',' if i < len(entries) - 1 else ''}" for i, entry in enumerate(entries)]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def goal_name(blank_first: bool) -> str:
    return GOALS[1] if blank_first else GOALS[0]


def require_goal(testset: CaseSet, blank_first: bool, assignment_source: str) -> None:
    """Refuse to grade with a set certified for another goal than the assignment's.

    Its optimal counts (and, for even N, its solvability) are those of the other goal: a correct
    answer would be judged against them. Raises :class:`ConfigError` naming ``$.output.goal``.
    """
    wanted = goal_name(blank_first)
    if testset.goal != wanted:
        manifest = testset.manifest_path or testset.root
        raise ConfigError(assignment_source, "$.output.goal",
                          f"the assignment's goal is {wanted}, but the test set {testset.name!r} ({manifest}) was "
                          f"certified for the {testset.goal} goal: make the set for this goal (grade testcases "
                          f"generate/import --goal {wanted}) or grade with a set made for it")


def select_cases(testset: CaseSet, patterns: list[str]) -> CaseSet:
    """The cases whose id matches a glob pattern, or that carry the tag of a ``tag:NAME`` pattern."""
    def wanted(case: Case) -> bool:
        return any(pattern[4:] in case.tags if pattern.startswith("tag:") else fnmatch.fnmatchcase(case.id, pattern)
                   for pattern in patterns)

    chosen = tuple(case for case in testset.cases if wanted(case))
    if not chosen:
        raise ConfigError(str(testset.manifest_path or testset.root), "$.cases",
                          f"no case matches {', '.join(map(repr, patterns))} (ids are globs; tags are tag:NAME)")
    return dataclasses.replace(testset, cases=chosen)
