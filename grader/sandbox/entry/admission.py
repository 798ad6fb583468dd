"""How a bwrap run's first process enters its worker slot when no compiled init does it
(:mod:`grader.sandbox.entry.boxinit`: no C compiler here, or ``NPUZZLE_SANDBOX_DISABLE=init``).

bwrap sets the sandbox up (namespaces, mounts, the uid map), reports the host pid of the
sandbox's first process on ``--info-fd``, and with ``--block-fd`` holds that process before it
loads the system-call filter and execs the namespace's init. While it waits, the runner moves it
into the slot's cgroups and lowers its rlimits (``prlimit(2)``); only then is it let go. So the
init and everything it starts are counted and limited from their first instruction, as when a
``sh`` joined the cgroups before exec'ing bwrap and ``prlimit`` came before the submission: two
programs fewer per run. (The init shell and ``setpriv`` now run under the rlimits too: they use
a few milliseconds of CPU, a few file descriptors and no memory to speak of.)

A process that cannot be admitted never runs: bwrap is killed (its sandbox dies with it,
``--die-with-parent``) before the block is lifted.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import time

from grader.sandbox import cgroups

ADMIT_SECONDS = 60.0
"""How long bwrap may take to set a sandbox up (milliseconds on an idle machine) before the run is a fault."""


def sandbox_pid(info_fd: int, bwrap_pid: int, timeout: float) -> int | None:
    """The host pid bwrap reports on ``info_fd`` once its sandbox is set up, if it is bwrap's child; None
    when bwrap ended (or took ``timeout``) without reporting it."""
    buffer, deadline = b"", time.monotonic() + timeout
    poller = select.poll()
    poller.register(info_fd, select.POLLIN)
    while True:
        with contextlib.suppress(ValueError):
            info = json.loads(buffer)
            return _child_of(int(info["child-pid"]), bwrap_pid) if isinstance(info, dict) else None
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(int(left * 1000) + 1):
            return None
        chunk = os.read(info_fd, 65536)
        if not chunk:  # every writer gone: bwrap died before it had a sandbox
            return None
        buffer += chunk


def _child_of(pid: int, parent: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            ppid = next(line.split()[1] for line in status if line.startswith("PPid:"))
    except (OSError, StopIteration):
        return None
    return pid if int(ppid) == parent else None


def admit(bwrap_pid: int, info_fd: int, block_fd: int, group: cgroups.SlotGroup | None,
          values: list[tuple[int, int, int]]) -> int | None:
    """Put the sandbox's first process in ``group`` under the rlimits ``values``, then let it run; its host
    pid, or None (bwrap killed) when bwrap reported none. Raises CgroupError or OSError (bwrap killed too)."""
    pid = None
    try:
        pid = sandbox_pid(info_fd, bwrap_pid, ADMIT_SECONDS)
        if pid is None:
            _kill(bwrap_pid)
            return None
        if group is not None:
            group.admit(pid)
        for res, soft, hard in values:
            resource.prlimit(pid, res, (soft, hard))
        return pid
    except BaseException:
        for each in (pid, bwrap_pid):
            if each is not None:
                _kill(each)
        raise
    finally:
        os.close(block_fd)  # lets the sandbox go on (or, killed, end)


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
