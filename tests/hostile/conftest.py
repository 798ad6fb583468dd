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

import pytest

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
