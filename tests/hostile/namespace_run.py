"""The hostile tests' run in a fresh PID namespace, started in the background when collection ends.

It is a whole pytest of its own (170-210 s), mostly waiting on the runs it starts (wall limits, sleeps,
fork storms killed), so the outer session starts it as soon as it knows the run is wanted and goes on with
the other tests (under pytest-xdist, the worker that gets the runner test, which then comes first, starts
it); ``test_pid_namespace.py`` then waits for it and checks what it reported. The run is the same command
either way: serial (``-n 0``, one test at a time), in a PID namespace with a /proc of its own, so its
host-cleanliness checks (processes of a per-run uid, a sleeper left by a killed grader) see its runs only,
not the outer suite's.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import IO

from tests.support import REPO

OUTER_NAMESPACE_ENV = "NPUZZLE_HOSTILE_OUTER_PIDNS"
# The whole namespace run, from its start (the runner test itself has pytest-timeout's 1500 s).
RUN_SECONDS = 1200


def own_pid_namespace() -> str:
    return os.readlink("/proc/self/ns/pid")


def inside_fresh_namespace() -> bool:
    """True in the pytest that the namespace run started (its PID namespace is not its parent's)."""
    outer = os.environ.get(OUTER_NAMESPACE_ENV)
    return outer is not None and outer != own_pid_namespace()


def xdist_worker() -> bool:
    """Whether this pytest is a pytest-xdist worker (every worker collects every test)."""
    return "PYTEST_XDIST_WORKER" in os.environ


def can_start() -> bool:
    """unshare is there and this is root (a PID namespace of its own needs root); the runner test names
    whichever is missing."""
    return shutil.which("unshare") is not None and os.geteuid() == 0


@dataclass
class Run:
    process: subprocess.Popen
    stdout: IO[bytes]
    stderr: IO[bytes]
    started: float

    def finish(self) -> tuple[int, str]:
        """Wait for the run (up to RUN_SECONDS from its start); its exit code and the tail of its output."""
        try:
            code = self.process.wait(timeout=max(0.0, self.started + RUN_SECONDS - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.wait()
            self.stderr.seek(0, os.SEEK_END)
            self.stderr.write(f"\nthe namespace run did not finish within {RUN_SECONDS} s\n".encode())
        report = _tail(self.stdout, 6000) + _tail(self.stderr, 2000)
        self.stdout.close()
        self.stderr.close()
        return code, report

    def kill(self) -> None:
        """End the whole run: unshare's group (--kill-child then kills the namespace's every process)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()


def start(node_ids: list[str]) -> Run:
    """Start ``pytest -x <node_ids>`` in a fresh PID namespace, its output into anonymous temp files."""
    env = dict(os.environ, **{OUTER_NAMESPACE_ENV: own_pid_namespace()})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    # Files, not pipes: nobody reads the output until the runner test's turn. They live as long as the Run.
    stdout, stderr = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # noqa: SIM115
    # A shell is the namespace's PID 1: it reaps the orphans a killed run leaves (pytest would not).
    argv = [shutil.which("unshare") or "unshare", "--pid", "--fork", "--mount-proc", "--kill-child", "--",
            "/bin/sh", "-c", '"$@"; exit $?', "sh",
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", "-n", "0", *node_ids]
    process = subprocess.Popen(argv, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                               start_new_session=True, preexec_fn=_default_signals)  # noqa: PLW1509
    return Run(process, stdout, stderr, time.monotonic())


def _default_signals() -> None:
    """In the child before exec: SIGINT and SIGQUIT at their defaults. pytest-xdist's workers ignore them, and
    a child inherits that; the namespace run (and every grader and submission in it) starts as from a shell."""
    for number in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(number, signal.SIG_DFL)


def _tail(file: IO[bytes], size: int) -> str:
    file.seek(0, os.SEEK_END)
    file.seek(max(0, file.tell() - size))
    return file.read().decode(errors="replace")
