"""Runs the selected hostile tests again inside a fresh PID namespace (see conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.hostile.conftest import OUTER_NAMESPACE_ENV, inside_fresh_namespace, own_pid_namespace
from tests.support import REPO, require_tool


@pytest.mark.timeout(1500)
def test_hostile_tests_in_a_fresh_pid_namespace(selected_hostile_tests):
    if inside_fresh_namespace():
        pytest.skip("already inside the namespace")
    if not selected_hostile_tests:
        pytest.skip("no hostile test selected")
    unshare = require_tool("unshare")
    if os.geteuid() != 0:
        message = "a PID namespace of their own needs root (unshare --pid); the hostile tests did not run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    env = dict(os.environ, **{OUTER_NAMESPACE_ENV: own_pid_namespace()})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    # A shell is the namespace's PID 1: it reaps the orphans a killed run leaves (pytest would not).
    done = subprocess.run([unshare, "--pid", "--fork", "--mount-proc", "--kill-child", "--",
                           "/bin/sh", "-c", '"$@"; exit $?', "sh",
                           sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                           *selected_hostile_tests],
                          cwd=REPO, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=1200)
    report = done.stdout.decode(errors="replace")[-6000:] + done.stderr.decode(errors="replace")[-2000:]
    print(report)
    assert done.returncode == 0 and " passed" in report, report
