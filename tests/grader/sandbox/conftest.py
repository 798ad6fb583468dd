"""What the sandbox tests share."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A run's folder on disk, in a temp folder of its own."""
    root = Path(tempfile.mkdtemp(prefix="npuzzle-runner-"))
    root.chmod(0o711)  # reachable by the uid that runs submissions when no bwrap hides the host
    work = root / "work"
    work.mkdir()
    yield work
    shutil.rmtree(root, ignore_errors=True)
