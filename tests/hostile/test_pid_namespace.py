"""Runs the selected hostile tests again inside a fresh PID namespace (see conftest.py).

The run itself started in the background when collection ended (tests/hostile/namespace_run.py); this test
waits for it and checks that every test in it passed.
"""

from __future__ import annotations

import os

import pytest

from tests.hostile.namespace_run import inside_fresh_namespace
from tests.support import require_tool


@pytest.mark.timeout(1500)
def test_hostile_tests_in_a_fresh_pid_namespace(selected_hostile_tests, namespace_run_started):
    if inside_fresh_namespace():
        pytest.skip("already inside the namespace")
    if not selected_hostile_tests:
        pytest.skip("no hostile test selected")
    require_tool("unshare")
    if os.geteuid() != 0:
        message = "a PID namespace of their own needs root (unshare --pid); the hostile tests did not run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    assert namespace_run_started is not None, "the namespace run was not started when collection ended"
    code, report = namespace_run_started.finish()
    print(report)
    assert code == 0 and " passed" in report, report
