"""``grade testcases export --visible``: a copy of a test set with only its visible cases.

A GitHub Classroom template repository is readable by every student, so it may hold only the
cases whose results students see anyway. The copy keeps the set's other files (assignment.toml,
libraries, drivers) and its manifest's fields, minus every case that is not ``visible``; what the
assignment names outside the set (a jar by an absolute path) is carried in (:mod:`grader.testsets.carry`). A file
is left out when it is a hidden case's input, and also when it reads as a puzzle board that no
visible case uses (a stray copy of a hidden board must not slip through). The copy is built
beside the target and renamed into place, so an interrupted export leaves nothing half-written.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader.errors import ConfigError, OutputDirError
from grader.testsets.carry import carry_named_files
from grader.testsets.model import MANIFEST, load_testset, read_manifest_json
from solver.errors import InputError
from solver.fileio import write_atomic
from solver.formats import parse_puzzle

BOARD_SNIFF_BYTES = 64 * 1024
"""Files above this size are not puzzle boards (the largest course board file is a few hundred bytes)."""


@dataclass(frozen=True)
class Exported:
    """What the export wrote: the folder, the cases kept, and the case ids left out."""

    folder: Path
    kept: int
    left_out: tuple[str, ...]


def _is_board(path: Path) -> bool:
    try:
        if path.stat().st_size > BOARD_SNIFF_BYTES:
            return False
        parse_puzzle(path.read_bytes(), str(path))
    except (OSError, InputError, ValueError):
        return False
    return True


def export_visible(set_dir: Path, out_dir: Path, force: bool = False) -> Exported:
    """Write the visible cases of the set in ``set_dir`` (and its other files) to ``out_dir``.

    Raises :class:`OutputDirError` if ``out_dir`` exists (unless ``force``) or cannot be written,
    and the test set's own errors (:func:`load_testset`) for a broken set.
    """
    testset = load_testset(Path(set_dir))
    root, out_dir = testset.root.resolve(), Path(out_dir)
    if out_dir.resolve() == root or root in out_dir.resolve().parents:
        raise OutputDirError(f"{out_dir}: the export must go outside the test set it copies ({root})")
    if out_dir.exists() and not force:
        raise OutputDirError(f"{out_dir}: already exists (use --force to replace it)")
    visible = [case for case in testset.cases if case.visibility == "visible"]
    if not visible:
        raise ConfigError(str(testset.manifest_path or root), "$.cases",
                          "no case is visible, so a visible-only copy would be empty")
    keep = {case.input_path.resolve() for case in visible}
    left_out = tuple(case.id for case in testset.cases if case.visibility != "visible")
    data = read_manifest_json(testset.manifest_path or root / MANIFEST)
    data["cases"] = [entry for entry in data["cases"] if entry.get("visibility", "visible") == "visible"]
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
        staging.chmod(0o755)
        try:
            for path in sorted(root.rglob("*")):
                if path.is_symlink() or not path.is_file() or path.name == MANIFEST:
                    continue
                resolved = path.resolve()
                if resolved not in keep and _is_board(path):
                    continue  # a hidden case's input, or a board no visible case uses
                target = staging / path.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
            write_atomic(staging / MANIFEST, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            carry_named_files(root, staging)  # a template repository cannot reach the TA's absolute paths
            load_testset(staging)  # the copy must be a sound set before it takes the target's place
            if out_dir.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-old-", dir=out_dir.parent))
                out_dir.rename(old / out_dir.name)
                shutil.rmtree(old, ignore_errors=True)
            staging.rename(out_dir)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except OSError as exc:
        raise OutputDirError(f"{out_dir}: cannot write the export: {exc.strerror or exc}") from None
    return Exported(out_dir, len(visible), left_out)
