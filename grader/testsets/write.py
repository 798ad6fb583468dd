"""Writing a test set folder: case files and manifest.json, fresh or appended to.

Files are written atomically one by one, the manifest last, so an interrupted write
leaves either the old manifest (and some unreferenced new files, which ``validate``
reports) or the complete new set.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from grader.errors import ConfigError, OutputDirError
from grader.testsets.generate import GeneratedCase
from grader.testsets.model import MANIFEST, Case, dump_manifest, load_testset, read_manifest_json
from solver.errors import InputError
from solver.fileio import write_atomic
from solver.formats import parse_puzzle


def _write_files(out_dir: Path, cases: Sequence[GeneratedCase]) -> None:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for generated in cases:
            target = out_dir / PurePosixPath(generated.case.input)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = generated.text
            write_atomic(target, text.encode("utf-8") if isinstance(text, str) else text)
    except OSError as exc:
        raise OutputDirError(f"{out_dir}: cannot write the test set: {exc.strerror or exc}") from None


def _old_inputs(manifest: Path) -> list[str]:
    """The inputs an existing manifest names (for --force), or none if it is unreadable."""
    try:
        data = read_manifest_json(manifest)
    except ConfigError:
        return []
    cases = data.get("cases") if isinstance(data, dict) else None
    return [c["input"] for c in cases or [] if isinstance(c, dict) and isinstance(c.get("input"), str)]


def write_set(out_dir: Path, name: str, cases: Sequence[GeneratedCase], description: str = "",
              source: str | None = None, force: bool = False, goal: str = "blank-last") -> Path:
    """Write a new set; with ``force``, replace the one there (removing its old case files).

    ``goal`` is the goal the cases were certified for (recorded in the manifest)."""
    manifest = out_dir / MANIFEST
    if manifest.exists():
        if not force:
            raise OutputDirError(f"{manifest}: a test set is already here (use --force to replace it, "
                                 "or --append to add to it)")
        keep = {g.case.input for g in cases}
        for old in _old_inputs(manifest):
            stale = out_dir / PurePosixPath(old)
            if old not in keep and ".." not in PurePosixPath(old).parts and stale.is_file():
                stale.unlink()
    _write_files(out_dir, cases)
    write_atomic(manifest, dump_manifest(name, [g.case for g in cases], description, source, goal))
    return manifest


def existing_boards(out_dir: Path) -> dict[tuple[int, ...], str]:
    """The boards of an existing set's cases, to refuse duplicates when appending."""
    boards = {}
    for case in load_testset(out_dir).cases:
        try:
            boards[parse_puzzle(case.input_path.read_bytes(), str(case.input_path)).tiles] = str(case.input_path)
        except (OSError, InputError):
            continue  # validate reports it; appending does not need it
    return boards


def append_to_set(out_dir: Path, cases: Sequence[GeneratedCase], goal: str = "blank-last") -> Path:
    """Add cases to an existing set, keeping its cases, name, description and goal.

    ``goal`` is the goal the new cases were certified for: it must be the set's.
    """
    testset = load_testset(out_dir)
    if goal != testset.goal:
        raise OutputDirError(f"{testset.manifest_path}: the set was certified for the {testset.goal} goal, the new "
                             f"cases for {goal}: use --goal {testset.goal}")
    taken_ids = {case.id for case in testset.cases}
    taken_inputs = {case.input for case in testset.cases}
    for generated in cases:
        if generated.case.id in taken_ids:
            raise OutputDirError(f"{testset.manifest_path}: the set already has a case {generated.case.id!r} "
                                 "(use --prefix to import under other ids)")
        if generated.case.input in taken_inputs or (out_dir / PurePosixPath(generated.case.input)).exists():
            raise OutputDirError(f"{out_dir / generated.case.input}: already exists (use --prefix)")
    _write_files(out_dir, cases)
    old: list[Case] = list(testset.cases)
    return_path = out_dir / MANIFEST
    write_atomic(return_path, dump_manifest(testset.name, old + [g.case for g in cases], testset.description,
                                            testset.source, testset.goal))
    return return_path
