"""Helpers for tests: tool requirements, shared data, golden files.

Import as ``from tests.support import require_tool, shared_data, check_golden``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from grader.sandbox import isolation

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
"""The hypothesis profile tests/conftest.py loads: "ci" (the default) or "thorough"."""


def examples(ci: int, thorough: int) -> int:
    """A property test's example count: ``ci`` in the default profile, ``thorough`` under
    HYPOTHESIS_PROFILE=thorough. Each caller says why ``ci`` examples still cover its property."""
    return thorough if HYPOTHESIS_PROFILE == "thorough" else ci


def require_tool(name: str) -> str:
    """The path of a tool the test needs: skip when missing locally, fail when missing in CI."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{message}, but CI must install it (.ci/run)")
        pytest.skip(message)
    return path


def python27() -> str:
    """A working Python 2.7 (on PATH, or pyenv's, whose shims only work when it is the active version);
    skip where there is none: Debian 12 packages none, so CI machines without pyenv skip."""
    candidates = [shutil.which("python2.7"), shutil.which("python2"),
                  *sorted(str(p) for p in Path.home().glob(".pyenv/versions/2.7*/bin/python2.7"))]
    for candidate in filter(None, candidates):
        try:
            done = subprocess.run([candidate, "-c", "import sys; assert sys.version_info[:2] == (2, 7)"],
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0 and _runnable_by_submissions(candidate):
            return candidate
    pytest.skip("no working Python 2.7 here that the sandbox's uids can run")


def _runnable_by_submissions(program: str) -> bool:
    """Without bubblewrap, a root grader runs submissions as other uids that reach the interpreter by
    its host path: pyenv's under root's 0700 home is out of their reach."""
    if os.geteuid() != 0 or (shutil.which("bwrap") and "bwrap" not in os.environ.get("NPUZZLE_SANDBOX_DISABLE", "")):
        return True
    path = Path(program).resolve()
    return all(os.stat(p).st_mode & 0o001 for p in [*path.parents, path])


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


@contextlib.contextmanager
def run_folders(prefix: str) -> Iterator[Callable[..., Path]]:
    """Makes fresh run folders the sandbox's uids can reach (0711 all the way, as the pipeline's are);
    removed on exit."""
    base = Path(tempfile.mkdtemp(prefix=prefix))
    base.chmod(0o711)

    def make(label: str = "run") -> Path:
        folder = Path(tempfile.mkdtemp(prefix=f"{label}-", dir=base))
        folder.chmod(0o711)
        return folder

    try:
        yield make
    finally:
        shutil.rmtree(base, ignore_errors=True)


# Each way this machine may hold a run -> the layers switched off to get it: bwrap with its compiled init
# (grader/sandbox/entry/boxinit.c), bwrap without it (a sh and setpriv start the run, the runner admits it), unshare
# (root, without bwrap), the reaper alone.
SANDBOX_MODES = {"bwrap": "", "bwrap-per-run": "resident", "bwrap-held": "init", "unshare": "bwrap",
                 "reaper": "bwrap,unshare"}


def sandbox_mode(plan: isolation.Plan) -> str:
    """The :data:`SANDBOX_MODES` name of what ``plan`` holds runs with."""
    if plan.backend.name == "bwrap" and plan.init is None:
        return "bwrap-held"
    if plan.backend.name == "bwrap" and plan.resident is None:
        return "bwrap-per-run"  # a case's runs start their own bwrap, not a resident sandbox's
    return plan.backend.name

