"""``grade testcases validate``: every problem of a test set, one per line.

Checks, in order: the manifest parses and meets its schema; ids and input files are
unique; every input file exists and parses with the one puzzle parser; N matches the
file; solvability and the optimal length are re-derived by the reference solver; no
two cases hold the same board; the folder holds no file the manifest does not name;
``assignment.toml`` (if present) loads. Problems name the file and the field
(``manifest.json::$.cases[3].optimal_moves: ...``) or the file and line of a puzzle.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from grader.errors import ConfigError
from grader.testsets.certify import CertificationLimit, certify
from grader.testsets.model import (
    GOALS,
    MANIFEST,
    goal_name,
    read_manifest_json,
    resolve_root,
    rule_problems,
    schema_problems,
)
from solver.errors import InputError
from solver.formats import parse_puzzle

ALLOWED_EXTRA = frozenset({MANIFEST, "assignment.toml", "README.md", "SOURCE.md"})
"""Files a set folder may hold besides the case inputs."""

Progress = Callable[[str], None]


@dataclass
class ValidationReport:
    problems: list[str] = field(default_factory=list)
    cases: int = 0
    certified: int = 0
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")

    @property
    def ok(self) -> bool:
        return not self.problems


def validate_testset(path: Path, node_limit: int | None = None,
                     progress: Progress = lambda message: None) -> ValidationReport:
    """Check a set folder (or its manifest.json) and return every problem found."""
    began = time.perf_counter()
    report = ValidationReport()
    root, manifest = resolve_root(Path(path))
    file = str(manifest)
    try:
        data = read_manifest_json(manifest)
    except ConfigError as exc:
        report.problems.append(str(exc))
        return report
    report.problems.extend(str(p) for p in schema_problems(data, file))
    entries = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return report
    report.cases = len(entries)
    broken = {_case_index(p.json_path) for p in schema_problems(data, file)}
    sound = [(i, e) for i, e in enumerate(entries) if i not in broken and isinstance(e, dict)]
    report.problems.extend(str(p) for p in rule_problems({"cases": [e for _, e in sound]}, file, [i for i, _ in sound]))

    boards: dict[tuple[int, ...], tuple[str, str]] = {}
    # A case broken in other fields still claims its file: don't call that file unknown too.
    referenced = {str(PurePosixPath(e["input"])) for e in entries
                  if isinstance(e, dict) and isinstance(e.get("input"), str)}
    goal = data.get("goal") if data.get("goal") in GOALS else GOALS[0]  # a bad goal is a schema problem above
    for index, entry in sound:
        _check_case(root, file, index, entry, boards, report, node_limit, progress, goal == GOALS[1])
    report.problems.extend(_unknown_files(root, referenced | _assignment_files(root), file))
    report.problems.extend(_assignment_problems(root, file, goal))
    report.seconds = time.perf_counter() - began
    return report


def _case_index(json_path: str) -> int | None:
    """The case index of a ``$.cases[i]...`` path, else None."""
    if json_path.startswith("$.cases["):
        return int(json_path[len("$.cases["):json_path.index("]")])
    return None


def _check_case(root: Path, file: str, index: int, entry: dict[str, Any],
                boards: dict[tuple[int, ...], tuple[str, str]], report: ValidationReport,
                node_limit: int | None, progress: Progress, blank_first: bool = False) -> None:
    where = f"{file}::$.cases[{index}]"
    case_id = entry["id"]
    path = root / PurePosixPath(entry["input"])
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        report.problems.append(f"{where}.input: case {case_id!r} names {entry['input']!r}, found no such file "
                               f"({path})")
        return
    except OSError as exc:
        report.problems.append(f"{where}.input: case {case_id!r} names {entry['input']!r}, which cannot be read: "
                               f"{exc.strerror or exc}")
        return
    try:
        board = parse_puzzle(data, str(path))
    except InputError as exc:
        report.problems.append(f"{exc} (the input of case {case_id!r}, {where}.input)")
        return
    if board.tiles in boards:
        other_id, other_input = boards[board.tiles]
        report.problems.append(f"{where}.input: {entry['input']} holds the same board as case {other_id!r} "
                               f"({other_input})")
    else:
        boards[board.tiles] = (case_id, entry["input"])
    if entry["n"] != board.n:
        report.problems.append(f"{where}.n: expected {board.n} (the file holds a {board.n}x{board.n} board), "
                               f"found {entry['n']}")
    try:
        cert = certify(board, node_limit, blank_first)
    except CertificationLimit as exc:
        report.problems.append(f"{where}.optimal_moves: case {case_id!r} could not be re-derived: {exc}")
        return
    report.certified += 1
    if cert.seconds > report.slowest[0]:
        report.slowest = (cert.seconds, case_id)
    progress(f"{case_id}: {'unsolvable' if not cert.solvable else f'{cert.moves} moves'} ({cert.seconds:.2f} s)")
    if entry["solvable"] and not cert.solvable:
        report.problems.append(f"{where}.solvable: case {case_id!r} is marked solvable, but its board is unsolvable "
                               "(inversion parity)")
    elif not entry["solvable"] and cert.solvable:
        report.problems.append(f"{where}.solvable: case {case_id!r} is marked unsolvable, but the reference solver "
                               f"solves it in {cert.moves} move{'' if cert.moves == 1 else 's'}")
    elif cert.solvable and entry["optimal_moves"] != cert.moves:
        report.problems.append(f"{where}.optimal_moves: case {case_id!r} says {entry['optimal_moves']}, the "
                               f"reference solver finds {cert.moves}")


def _unknown_files(root: Path, referenced: set[str], file: str) -> list[str]:
    problems = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if rel in referenced or rel in ALLOWED_EXTRA:
            continue
        problems.append(f"{path}: unknown file (no case in {file} names it); remove it or add a case")
    return problems


def _assignment_files(root: Path) -> set[str]:
    """Files inside the set that its ``assignment.toml`` names (jars, drivers, extra files): not unknown files."""
    from grader.testsets.assignment import FILE_NAME, load_assignment

    try:
        assignment = load_assignment(root / FILE_NAME) if (root / FILE_NAME).is_file() else None
    except ConfigError:
        return set()  # reported by _assignment_problems
    if assignment is None:
        return set()
    named = set()
    real_root = root.resolve()
    for path in assignment.named_paths():
        inside = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for each in inside:
            if each.resolve().is_relative_to(real_root):
                named.add(each.resolve().relative_to(real_root).as_posix())
    return named


def _assignment_problems(root: Path, manifest: str, goal: str) -> list[str]:
    """``assignment.toml`` loads, and its goal is the one the set was certified for."""
    from grader.testsets.assignment import FILE_NAME, load_assignment

    path = root / FILE_NAME
    if not path.is_file():
        return [(f"{path}: no assignment.toml, so `grade` refuses this set: write one saying how submissions read "
                 "the puzzle and answer (one line such as preset = \"cmpe160\"; testcases/README.md shows each)")]
    try:
        assignment = load_assignment(path)
    except ConfigError as exc:
        return [str(exc)]
    wanted = goal_name(assignment.blank_first)
    if wanted != goal:
        return [f"{path}::$.output.goal: the assignment's goal is {wanted}, but {manifest} was certified for "
                f"the {goal} goal (regenerate or re-import the set with --goal {wanted})"]
    return []
