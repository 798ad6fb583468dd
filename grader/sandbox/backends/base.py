"""What every sandbox backend answers, and what the backends share.

A :class:`Backend` is one way to hold a run (bubblewrap, util-linux ``unshare``, the bare reaper shim);
:func:`grader.sandbox.isolation.probe` picks one per process, and the runner asks it what differs instead
of naming the mode: how a run's argv is wrapped, where the run sees its folder, who admits it into its
slot and drops its uid, how its exit status reads, what is left to kill when it times out.
"""

from __future__ import annotations

import functools
import os
import select
import shutil
import signal
import subprocess
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from grader.sandbox import cgroups

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
# A run's private /tmp (memory-backed, so small).
TMP_SIZE_BYTES = 64 * 1024 * 1024
PROBE_TIMEOUT = 10.0
PROBE_ENV = {"PATH": "/usr/bin:/bin"}


@dataclass(frozen=True)
class LayerStatus:
    name: str
    available: bool
    reason: str  # why it is off, or what it gives when on


@dataclass(frozen=True)
class Wrapping:
    """What a run's argv is wrapped with: its folder, what else it may read, its uid (None: the grader's
    own), its slot's cgroups, its rlimits ``(resource, soft, hard)``, the system-call filter, and the fds
    the runner passes (bwrap's info pipe, the filter's fd, the fd that holds the sandbox until admitted)."""

    workdir: Path
    readable: Sequence[Path]
    uid: int | None
    group: cgroups.SlotGroup | None
    rlimits: Sequence[tuple[int, int, int]]
    seccomp: bytes | None = None
    userns: bool = False
    info_fd: int | None = None
    seccomp_fd: int | None = None
    block_fd: int | None = None
    init: Path | None = None
    """The compiled sandbox init (:mod:`grader.sandbox.entry.boxinit`), which joins the slot through ``join_fds``, sets
    the rlimits and drops the uid itself; None: the backend's shims and the runner do."""
    join_fds: tuple[int, ...] = ()
    token: str = ""
    """This run's secret, which the grader's own shims put in a failure message (``limits.SHIM_FAULT``): a
    submission can print anything and exit with any code, so only a message carrying it is the shims'."""


class Backend(ABC):
    """One isolation mode; one instance each (:data:`grader.sandbox.backends.BACKENDS`), stateless."""

    name: ClassVar[str]                 # as `grade doctor` and NPUZZLE_SANDBOX_DISABLE name it
    layers: ClassVar[tuple[str, ...]]   # what results.json lists for it
    # Own PID, network and mount namespaces, whose init reports a child killed by signal N as 128 + N.
    namespaces: ClassVar[bool]
    # The run sees the system dirs and its own folder only: host paths and their permissions do not
    # reach it, and nothing of the host's /tmp or IPC is shared (its uid needs no scrub after it).
    private_view: ClassVar[bool]
    # The backend can hold the sandbox's first process until the runner has admitted it into its slot's
    # cgroups and set its rlimits (the uid drop is the backend's, the filter passed by fd): it does when no
    # compiled init admits the run itself (isolation.Plan.holds); else the reaper shim in the argv joins the
    # slot, sets the rlimits, drops the uid and loads the filter.
    held: ClassVar[bool]
    userns: ClassVar[bool]              # can put each run in a user namespace of its own
    tmp_view: ClassVar[str]             # what the run's /tmp is, for `grade doctor`
    as_fallback: ClassVar[str]          # what runs get when this is the best mode left

    def __repr__(self) -> str:
        return f"<sandbox backend {self.name}>"

    def inside(self, workdir: Path) -> str:
        """The workdir's path as the run sees it."""
        return str(workdir)

    def neutral(self, values: Sequence[str], workdir: Path) -> list[str]:
        """``values`` (argv, environment) with the workdir's host path replaced by its path inside."""
        return list(values)

    @abstractmethod
    def wrap(self, argv: Sequence[str], run: Wrapping) -> list[str]:
        """The argv to start for a run of ``argv`` (already neutral), outermost first."""

    @abstractmethod
    def probe(self, drop_uid: int | None) -> LayerStatus:
        """Whether this mode works here (runs a trivial sandbox; not cached)."""

    def probe_filter(self, program: bytes, drop_uid: int | None) -> str | None:
        """Why this mode cannot start a run under the filter ``program``, or None."""
        return None

    def decode_status(self, status: int) -> tuple[int | None, int | None]:
        """``(exit code, signal)`` of a run from its wait status."""
        if os.WIFSIGNALED(status):
            return None, os.WTERMSIG(status)
        code = os.WEXITSTATUS(status)
        # A namespace's init (bwrap's, or the reaper under unshare) cannot re-raise a signal on
        # itself and reports a child killed by signal N as exit code 128 + N, as shells do.
        if self.namespaces and 128 < code < 128 + 65:
            try:
                return None, signal.Signals(code - 128).value
            except ValueError:
                pass
        return code, None

    def on_timeout(self, pid: int, group: cgroups.SlotGroup | None, uid: int | None) -> None:
        """What to stop first when the run started as ``pid`` timed out, before its process group is
        killed."""
        return None  # a namespace dies with its init, which the runner kills next


@functools.cache
def tool(name: str) -> str:
    """The absolute path of a sandbox tool (the submission's PATH is not the grader's)."""
    return shutil.which(name) or name


def try_command(argv: list[str]) -> str | None:
    """None when the probe command succeeds, else why it failed (first stderr line)."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, check=False, capture_output=True, timeout=PROBE_TIMEOUT,
                              cwd="/", env=PROBE_ENV)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{type(exc).__name__}: {exc}"
    if done.returncode != 0:
        line = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return (line[0] if line else f"exit code {done.returncode}")
    return None


@functools.lru_cache(maxsize=64)  # asked for every run: the same few interpreters, installed where they were
def install_prefixes(program: str) -> tuple[Path, ...]:
    """The install folder of an interpreter outside the system dirs (``/opt/x/bin/java`` -> ``/opt/x``).

    bwrap shows the submission only the system dirs, so an absolute ``argv[0]`` such as a
    pyenv or venv Python would not exist inside; its prefix (never the repository) is
    bound read-only.
    """
    if not os.path.isabs(program):
        return ()
    found = []
    for path in (Path(program), Path(program).resolve()):
        outside = not any(str(path).startswith(d + "/") for d in SYSTEM_DIRS)
        if outside and path.parent.name == "bin" and path.parent.parent != Path("/") and path.exists():
            found.append(path.parent.parent)
    return tuple(dict.fromkeys(found))


def wait_exit(pid: int, timeout: float) -> bool:
    """Wait for ``pid`` to exit without reaping it (so its process group stays valid); True on timeout."""
    if hasattr(os, "pidfd_open"):
        fd = os.pidfd_open(pid)
        try:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            return not poller.poll(max(0, int(timeout * 1000)))
        finally:
            os.close(fd)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return False
        time.sleep(0.01)
    return True
