"""The hostile tests run only inside a fresh PID namespace of their own.

Some of these programs fork hundreds of processes, hog process slots or signal every
process they may (``kill(-1)``). Run on a shared machine, a mistake in the sandbox would
reach the other users' processes. So a plain ``pytest tests/hostile`` collects the tests
but skips them all, and one test (:func:`test_pid_namespace.test_hostile_tests_in_a_fresh_pid_namespace`)
runs the selected ones again under ``unshare --pid --fork --mount-proc --kill-child``: they
see only their own namespace's processes, and the kernel kills whatever is left when it
ends. That run starts in the background as soon as collection ends (:mod:`tests.hostile.namespace_run`),
so its few minutes of waiting overlap the rest of the suite; the runner test collects its result.
Each program itself runs under the grader's per-run uids (as root) or the reaper's uid drop.
Without root or ``unshare`` the hostile tests skip locally and fail under CI=true.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path

import pytest

from grader.sandbox import isolation
from tests.hostile import namespace_run
from tests.hostile.namespace_run import inside_fresh_namespace
from tests.support import SANDBOX_MODES, require_tool, sandbox_mode

RUNNER_TEST = "test_pid_namespace.py"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    hostile = [item for item in items if "tests/hostile/" in str(item.path).replace(os.sep, "/")
               and item.path.name != RUNNER_TEST]
    config.stash[SELECTED] = [item.nodeid for item in hostile]
    if inside_fresh_namespace():
        return
    if namespace_run.xdist_worker():
        # Under pytest-xdist the runner test starts the run itself: first, so that the worker it lands on
        # waits out the namespace run while the other workers run the rest of the suite.
        items.sort(key=lambda item: item.path.name != RUNNER_TEST)
    skip = pytest.mark.skip(reason="hostile: runs only inside a fresh PID namespace (see test_pid_namespace.py)")
    for item in hostile:
        item.add_marker(skip)


SELECTED = pytest.StashKey[list]()
BACKGROUND = pytest.StashKey[namespace_run.Run]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the namespace run now, when the runner test is among the tests to run and it can start here;
    otherwise the runner test skips or fails with the reason when its turn comes."""
    config = session.config
    if config.option.collectonly or inside_fresh_namespace() or namespace_run.xdist_worker() \
            or BACKGROUND in config.stash:
        return
    if not config.stash.get(SELECTED, []) or not any(item.path.name == RUNNER_TEST for item in session.items):
        return
    if namespace_run.can_start():
        config.stash[BACKGROUND] = namespace_run.start(config.stash[SELECTED])


def pytest_unconfigure(config: pytest.Config) -> None:
    """A session that stops early (-x, Ctrl-C, a deselected runner) leaves no namespace run behind."""
    run = config.stash.get(BACKGROUND, None)
    if run is not None:
        run.kill()


@pytest.fixture
def selected_hostile_tests(request: pytest.FixtureRequest) -> list[str]:
    return request.config.stash.get(SELECTED, [])


@pytest.fixture
def namespace_run_started(request: pytest.FixtureRequest, selected_hostile_tests: list[str]) \
        -> namespace_run.Run | None:
    """The namespace run started when collection ended, or (under pytest-xdist) started now; None when it
    cannot start here (the runner test says why)."""
    config = request.config
    if BACKGROUND not in config.stash and selected_hostile_tests and namespace_run.can_start() \
            and not inside_fresh_namespace():
        config.stash[BACKGROUND] = namespace_run.start(selected_hostile_tests)
    return config.stash.get(BACKGROUND, None)


MODES = SANDBOX_MODES  # mode -> the layers switched off to get it


def current_plan() -> isolation.Plan:
    with warnings.catch_warnings():  # a degraded mode is what these tests ask for
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        return isolation.plan()


@pytest.fixture(params=list(MODES))
def mode(request, monkeypatch) -> str:
    """Run the test under one isolation layer; skip the layers this machine lacks (bwrap must work in CI)."""
    name = request.param
    monkeypatch.setenv(isolation.DISABLE_ENV, MODES[name])
    if name.startswith("bwrap"):
        require_tool("bwrap")
    chosen = current_plan()
    if sandbox_mode(chosen) != name:
        if name.startswith("bwrap") and os.environ.get("CI"):
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
