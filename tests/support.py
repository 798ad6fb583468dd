"""Helpers for tests: tool requirements, shared data, golden files.

Import as ``from tests.support import require_tool, shared_data, check_golden``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def require_tool(name: str) -> str:
    """The path of a tool the test needs: skip when missing locally, fail when missing in CI."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{message}, but CI must install it (.ci/run)")
        pytest.skip(message)
    return path


def shared_data(*parts: str) -> Path:
    """A path under ../shared; skip when the shared data is not beside the clone, fail in CI."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing; CI runs with shared/ beside the clone")
        pytest.skip(f"{path} is not available")
    return path


def check_golden(path: Path, actual: str, update: bool) -> None:
    """Compare ``actual`` with a golden file, or rewrite it under ``--update-golden``."""
    if update or not path.exists():
        if not update:
            pytest.fail(f"golden file {path} is missing; run pytest --update-golden and review it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert actual == path.read_text(encoding="utf-8"), f"output differs from golden file {path}"
