"""A failure of the grader's own shims (the sh that joins the slot's cgroups, the reaper) is a grader fault;
a submission that prints the same words and exits with the same code is only a program that failed.

The shims end with exit code 125 and a message on stderr; a submission can do both. Only a message
carrying the run's secret token (made fresh per run, never in the submission's reach) is the shims'.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.sandbox import cgroups, isolation, limits, reaper, runner
from tests.support import SANDBOX_MODES, sandbox_mode

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
FORGED = [
    "grader sandbox: cannot join the run cgroup",
    "grader sandbox: [] cannot join the run cgroup",
    "grader sandbox: [0123456789abcdef0123456789abcdef] cannot load the seccomp filter: Invalid argument",
    "grader sandbox: cannot mount tmpfs on /tmp: Operation not permitted",
]
MODES = SANDBOX_MODES  # each way this machine may hold a run


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("forged", FORGED, ids=["join", "join-empty-token", "seccomp", "mount"])
def test_a_program_that_prints_a_shim_failure_is_not_a_grader_fault(mode, forged, workdir, monkeypatch):
    monkeypatch.setenv("NPUZZLE_SANDBOX_DISABLE", MODES[mode])
    if sandbox_mode(isolation.plan()) != mode:
        pytest.skip(f"{mode} does not work here")
    code = f"import sys, os\nsys.stderr.write({forged!r} + '\\n')\nsys.stderr.flush()\nos._exit(125)"
    outcome = runner.run_command([PYTHON, "-c", code], workdir, runner.Limits(wall_seconds=10))
    assert outcome.exit_code == 125 and outcome.stderr.startswith(forged.encode()), outcome


@pytest.mark.parametrize("mode", list(MODES))
def test_the_token_never_reaches_the_program(mode, workdir, monkeypatch):
    monkeypatch.setenv("NPUZZLE_SANDBOX_DISABLE", MODES[mode])
    if sandbox_mode(isolation.plan()) != mode:
        pytest.skip(f"{mode} does not work here")
    # the parent: bwrap's init (the compiled one, or a sh); its environment, where one runs as the same uid
    code = ("import os\nprint(sorted(os.environ))\n"
            "print(open('/proc/self/cmdline', 'rb').read())\n"
            "print(open('/proc/%d/cmdline' % os.getppid(), 'rb').read())\n"
            "try:\n    print(open('/proc/%d/environ' % os.getppid(), 'rb').read())\n"
            "except OSError as exc:\n    print(exc)\n")
    outcome = runner.run_command([PYTHON, "-c", code], workdir, runner.Limits(wall_seconds=10))
    assert outcome.exit_code == 0, outcome
    assert limits.TOKEN_ENV.encode() not in outcome.stdout and b"grader sandbox" not in outcome.stdout, outcome


def test_a_real_join_failure_is_a_grader_fault(workdir, monkeypatch):
    """The sh that joins the slot fails (here: a folder that is not there): CgroupError, not a verdict."""
    monkeypatch.setenv("NPUZZLE_SANDBOX_DISABLE", "bwrap")  # bwrap's runs are moved in by the runner
    plan = isolation.plan()
    if plan.cgroups is None or plan.backend.held:
        pytest.skip("no sh joins a slot here")
    real = cgroups.join_argv

    def unwritable(group, token=""):
        first = str(sorted(group.dirs.values())[0])
        return [arg.replace(first, "/nonexistent") for arg in real(group, token)]
    monkeypatch.setattr(cgroups, "join_argv", unwritable)
    with pytest.raises(cgroups.CgroupError, match="could not join its cgroup"):
        runner.run_command(["/bin/sh", "-c", "echo ran"], workdir, runner.Limits(wall_seconds=10))


def test_the_reaper_speaks_the_runners_words():
    """reaper.py imports nothing of the project: its copies of the shims' words must agree."""
    assert (reaper.SHIM_EXIT, reaper.SHIM_FAULT, reaper.TOKEN_ENV) == \
        (limits.SHIM_EXIT, limits.SHIM_FAULT, limits.TOKEN_ENV)
