"""The hostile tests run only inside a fresh PID namespace of their own.

Some of these programs fork hundreds of processes, hog process slots or signal every
process they may (``kill(-1)``). Run on a shared machine, a mistake in the sandbox would
reach the other users' processes. So a plain ``pytest tests/hostile`` collects the tests
but skips them all, and one test (:func:`test_pid_namespace.test_hostile_tests_in_a_fresh_pid_namespace`)
runs the selected ones again under ``unshare --pid --fork --mount-proc --kill-child``: they
see only their own namespace's processes, and the kernel kills whatever is left when it
ends. Each program itself runs under the grader's per-run uids (as root) or the reaper's
uid drop. Without root or ``unshare`` the hostile tests skip locally and fail under CI=true.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path

import pytest

from grader.sandbox import isolation
from tests.support import require_tool

OUTER_NAMESPACE_ENV = "NPUZZLE_HOSTILE_OUTER_PIDNS"
RUNNER_TEST = "test_pid_namespace.py"


def own_pid_namespace() -> str:
    return os.readlink("/proc/self/ns/pid")


def inside_fresh_namespace() -> bool:
    """True in the pytest that the namespace test started (its PID namespace is not its parent's)."""
    outer = os.environ.get(OUTER_NAMESPACE_ENV)
    return outer is not None and outer != own_pid_namespace()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    hostile = [item for item in items if "tests/hostile/" in str(item.path).replace(os.sep, "/")
               and item.path.name != RUNNER_TEST]
    config.stash[SELECTED] = [item.nodeid for item in hostile]
    if inside_fresh_namespace():
        return
    skip = pytest.mark.skip(reason="hostile: runs only inside a fresh PID namespace (see test_pid_namespace.py)")
    for item in hostile:
        item.add_marker(skip)


SELECTED = pytest.StashKey[list]()


@pytest.fixture
def selected_hostile_tests(request: pytest.FixtureRequest) -> list[str]:
    return request.config.stash.get(SELECTED, [])


# mode -> the layers switched off to get it
MODES = {"bwrap": "", "unshare": "bwrap", "reaper": "bwrap,unshare"}


def current_plan() -> isolation.Plan:
    with warnings.catch_warnings():  # a degraded mode is what these tests ask for
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        return isolation.plan()


@pytest.fixture(params=list(MODES))
def mode(request, monkeypatch) -> str:
    """Run the test under one isolation layer; skip the layers this machine lacks (bwrap must work in CI)."""
    name = request.param
    monkeypatch.setenv(isolation.DISABLE_ENV, MODES[name])
    if name == "bwrap":
        require_tool("bwrap")
    chosen = current_plan()
    if chosen.backend.name != name:
        if name == "bwrap" and os.environ.get("CI"):
            pytest.fail(f"bwrap is installed but unusable: {'; '.join(chosen.notes)}")
        pytest.skip(f"{name} is not available here: {'; '.join(chosen.notes)}")
    return name


@pytest.fixture
def root() -> Path:
    """A run root that uid 65534 can traverse (0711), as the grader's own run folder must be
    when no bwrap hides the host; pytest's tmp_path lives under a 0700 folder."""
    folder = Path(tempfile.mkdtemp(prefix="npuzzle-hostile-"))
    folder.chmod(0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
