"""``grade testcases import``: a folder of puzzle files into a certified test set.

A file whose board another file already holds is still certified and cross-checked,
then left out (a set never holds a board twice).

Every file is parsed with the one puzzle parser (:func:`solver.formats.parse_puzzle`)
and its answer certified by the reference solver. A count the file name states (the
Princeton convention: ``puzzle3x3-20.txt``, ``puzzle20.txt``, ``puzzle4x4-unsolvable.txt``)
or one given with ``--expect NAME=COUNT`` is cross-checked, and every disagreement is
reported: the solver's certified count is what goes into the manifest.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from grader.model.manifest import Visibility
from grader.testsets.certify import (
    Certificate,
    CertificationLimit,
    answer_tags,
    certify,
    format_board,
)
from grader.testsets.generate import GeneratedCase
from grader.testsets.model import Case
from solver.board import Board
from solver.errors import InputError
from solver.formats import parse_puzzle

Progress = Callable[[str], None]

# puzzle3x3-20.txt, puzzle20.txt, puzzle4x4-unsolvable1.txt: optional size, then a count or "unsolvable".
_NAME_RE = re.compile(r"^[A-Za-z]*?(?:(?P<size>\d+)x(?P=size)-)?(?:(?P<moves>\d+)|(?P<unsolvable>unsolvable)\d*)$",
                      re.IGNORECASE)
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class NameClaim:
    """What a file's name (or an ``--expect``) says about its board."""

    n: int | None
    moves: int | None
    unsolvable: bool
    origin: str

    def describe(self) -> str:
        return "unsolvable" if self.unsolvable else f"{self.moves} moves"


def name_claim(file_name: str) -> NameClaim | None:
    """The size and answer a Princeton-style file name states, if any.

    >>> name_claim("puzzle3x3-20.txt")
    NameClaim(n=3, moves=20, unsolvable=False, origin='file name')
    >>> name_claim("puzzle4x4-unsolvable.txt").unsolvable, name_claim("input1.txt")
    (True, None)
    """
    stem = Path(file_name).stem
    match = _NAME_RE.match(stem)
    if not match or not stem.lower().startswith("puzzle"):
        return None
    n = int(match["size"]) if match["size"] else None
    if match["unsolvable"]:
        return NameClaim(n, None, True, "file name")
    return NameClaim(n, int(match["moves"]), False, "file name")


def parse_expectations(items: tuple[str, ...] | list[str]) -> dict[str, NameClaim]:
    """``NAME=COUNT`` or ``NAME=unsolvable`` items, as given to ``--expect``."""
    claims = {}
    for item in items:
        name, sep, value = item.partition("=")
        value = value.strip().lower()
        if not sep or not name.strip() or not (value.isdigit() or value == "unsolvable"):
            raise ValueError(f"expected NAME=COUNT or NAME=unsolvable, found {item!r}")
        claims[name.strip()] = NameClaim(None, None if value == "unsolvable" else int(value),
                                         value == "unsolvable", "--expect")
    return claims


def case_id_for(file_name: str, prefix: str = "") -> str:
    """A manifest id from a file name: its stem, with unsafe characters replaced."""
    stem = _ID_UNSAFE.sub("-", Path(file_name).stem).strip("-._") or "case"
    return f"{prefix}{stem}"


@dataclass
class ImportReport:
    """The imported cases, one line per file for the user, and the problems found."""

    cases: list[GeneratedCase] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    certified: int = 0
    checked: int = 0
    agreed: int = 0
    duplicates: int = 0


@dataclass(frozen=True)
class ImportOptions:
    pattern: str = "*.txt"
    style: str = "keep"
    prefix: str = ""
    visibility: Visibility = "visible"
    points: float = 1
    tags: tuple[str, ...] = ()
    time_limit: float | None = None
    hard_time_limit: float | None = None
    expect: dict[str, NameClaim] = field(default_factory=dict)
    node_limit: int | None = None
    cases_dir: str = "cases"
    blank_first: bool = False
    """Certify for the goal 0 1 2 … (the assignment's ``[output] goal = "blank-first"``)."""


def import_dir(source: Path, options: ImportOptions = ImportOptions(),
               taken_boards: dict[tuple[int, ...], str] | None = None,
               progress: Progress = lambda message: None) -> ImportReport:
    """Parse, certify and cross-check every file of ``source`` matching ``options.pattern``."""
    report = ImportReport()
    seen: dict[tuple[int, ...], str] = dict(taken_boards or {})
    files = sorted(p for p in Path(source).iterdir() if p.is_file() and fnmatch.fnmatch(p.name, options.pattern))
    if not files:
        report.problems.append(f"{source}: no file matches {options.pattern!r}")
    for path in files:
        data = path.read_bytes()
        try:
            board = parse_puzzle(data, str(path))
        except InputError as exc:
            report.problems.append(f"{exc} (not a puzzle file; narrow --pattern to skip it)")
            continue
        try:
            cert = certify(board, options.node_limit, options.blank_first)
        except CertificationLimit as exc:
            report.problems.append(f"{path}: not certified: {exc}")
            continue
        report.certified += 1
        answer = f"{cert.moves} moves" if cert.solvable else "unsolvable"
        claim = options.expect.get(path.name) or name_claim(path.name)
        verdict = ""
        if claim is not None:
            report.checked += 1
            disagreements = []
            if claim.n is not None and claim.n != board.n:
                disagreements.append(f"the {claim.origin} says {claim.n}x{claim.n}, the file holds {board.n}x{board.n}")
            if claim.unsolvable != (not cert.solvable) or (cert.solvable and claim.moves != cert.moves):
                disagreements.append(f"the {claim.origin} says {claim.describe()}, the reference solver "
                                     f"finds {answer}")
            if disagreements:
                report.problems.extend(f"{path}: {d}" for d in disagreements)
                verdict = "; DISAGREES with the " + claim.origin
            else:
                report.agreed += 1
                verdict = f"; agrees with the {claim.origin}"
        duplicate = seen.get(board.tiles)
        skipped = f"; left out: the same board as {Path(duplicate).name}" if duplicate else ""
        report.lines.append(f"{path.name}: {board.n}x{board.n}, {answer} (certified in {cert.seconds:.2f} s)"
                            f"{verdict}{skipped}")
        progress(report.lines[-1])
        if duplicate:
            report.duplicates += 1
            continue
        if verdict.startswith("; DISAGREES"):
            continue  # only with --skip-bad is anything written, and then without this file
        seen[board.tiles] = str(path)
        report.cases.append(_case(path, board, data, cert, options))
    return report


def _case(path: Path, board: Board, data: bytes, cert: Certificate, options: ImportOptions) -> GeneratedCase:
    tags = answer_tags(board, cert) + [t for t in options.tags if t]
    hard = "hard" in tags
    limit = options.hard_time_limit if hard and options.hard_time_limit is not None else options.time_limit
    if options.style == "keep":
        text: str | bytes = data
        name = f"{options.prefix}{path.name}"
    else:
        text = format_board(board, options.style)
        name = f"{options.prefix}{path.stem}.txt"
    case_id = case_id_for(path.name, options.prefix)
    case = Case(id=case_id, input_path=Path(options.cases_dir, name), n=board.n, solvable=cert.solvable,
                optimal_moves=cert.moves, points=options.points, visibility=options.visibility,
                time_limit_seconds=limit, tags=tuple(dict.fromkeys(tags)), input=f"{options.cases_dir}/{name}",
                source=f"imported {path.parent.name}/{path.name}")
    return GeneratedCase(case, board, text)
