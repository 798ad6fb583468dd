"""Shared helpers for the test-set tests: copies of the tiny set, and the CLI run in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.cli import entry

DATA = Path(__file__).resolve().parent / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"
TINY = DATA / "tiny"


def tiny_copy(tmp_path: Path, manifest: Path | None = None) -> Path:
    """A writable copy of the tiny set, optionally with another manifest.json."""
    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    if manifest is not None:
        shutil.copyfile(manifest, root / "manifest.json")
    return root


def grade(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Run ``grade ARGS`` in-process: (exit code, stdout, stderr)."""
    code = entry([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def scrub(text: str, root: Path) -> str:
    """Output with the temp folder replaced by ``<set>``, so golden files are stable."""
    return text.replace(str(root), "<set>")
