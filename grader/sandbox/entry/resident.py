"""A bwrap sandbox built once per box and entered by each run (``boxinit -S``, see ``boxinit.c``).

bwrap costs ~4.5 ms of CPU per start (namespaces, ~35 mounts, its exec and pivot), a third of what a
short run costs (docs/performance.md). A resident sandbox does that work once per box: bwrap binds the
system, the box at ``/run/box`` and whatever the runs of that box read, and its PID 1 is the compiled init
in resident mode. Each run is then one request over a socket: the init clones the run's PID 1 into new
PID, mount, network, IPC and UTS namespaces, with a fresh ``/proc`` and ``/tmp``, and it joins
the slot, limits, drops the uid, loads the filter and execs as a bwrap run's init does. What one run can
see of the one before is what it could under a bwrap per run: the box (emptied between runs, as before),
and nothing else that a run can write.

:class:`Resident` is one such sandbox, for one box and one set of read-only binds; :class:`Residents`
keeps a box's few (keyed by those binds). A box is used by one worker at a time, and so is each resident.
The init exits when its socket's other end closes: when the grader ends, even by ``kill -9``, the kernel
ends the sandbox and everything in it.
"""

from __future__ import annotations

import array
import contextlib
import os
import select
import socket
import subprocess
import tempfile
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import seccomp
from grader.sandbox.backends import bubblewrap
from grader.sandbox.backends.base import TMP_SIZE_BYTES, tool

REPLY_SECONDS = 5.0
"""How long the init may take to answer a request (a clone and a pidfd; milliseconds)."""
KEPT = 4
"""Residents kept per box: one per set of binds (e.g. a system Java and a venv's Python in one class)."""


class ResidentError(OSError):
    """The resident sandbox failed or did not answer: a grader fault, never the run's."""


@dataclass(frozen=True)
class Ended:
    """How a run's PID 1 ended: its wait status and what wait4 counted for it and all it reaped."""

    status: int
    cpu_seconds: float
    maxrss_kb: int


class Resident:
    """One sandbox: bwrap with the box bound at ``/run/box`` and ``paths`` read-only, the init its PID 1."""

    def __init__(self, init: Path, box: Path, paths: Sequence[Path], program: bytes | None) -> None:
        """Start bwrap; ``program`` is the seccomp filter every run's program starts under (None: none)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        arguments = ["-S", str(theirs.fileno()), "-t", str(TMP_SIZE_BYTES)]
        passed = [theirs.fileno()]
        filter_fd = seccomp.program_fd(program) if program else None
        if filter_fd is not None:
            arguments += ["-s", str(filter_fd)]
            passed.append(filter_fd)
        # What bwrap or the init says when it cannot start: kept for the error, never read from a pipe that fills.
        self._said = os.memfd_create("npuzzle-resident-stderr", os.MFD_CLOEXEC)
        argv = bubblewrap.resident_prefix(tool("bwrap"), box, list(paths), init) + [bubblewrap.INIT_INSIDE, *arguments]
        try:
            self._process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                             stderr=self._said, pass_fds=passed, cwd="/",
                                             env={"PATH": "/usr/bin:/bin"}, start_new_session=True)
        except OSError as exc:
            ours.close()
            os.close(self._said)
            raise ResidentError(0, f"cannot start a resident sandbox: {exc}") from exc
        finally:
            theirs.close()
            if filter_fd is not None:
                os.close(filter_fd)
        self._socket = ours
        self._owner = os.getpid()

    def enter(self, token: str, init_arguments: Sequence[str], argv: Sequence[str], env: Mapping[str, str],
              fds: Sequence[int]) -> int:
        """Start a run: ``argv`` with ``init_arguments`` (rlimits, uid, through ``--``), the environment ``env``,
        and ``fds`` (stdin, stdout, stderr, then the slot's join fds). Returns a pidfd of the run's PID 1."""
        words = [token, *init_arguments, str(len(argv)), *argv, *(f"{k}={v}" for k, v in env.items())]
        payload = b"\0".join(w.encode("utf-8", "surrogateescape") for w in words) + b"\0"
        try:
            self._socket.sendmsg([payload], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
        except OSError as exc:
            raise self._failed(f"took no run ({exc.strerror})") from exc
        text, fd = self._reply()
        if text != "S" or fd is None:
            if fd is not None:
                os.close(fd)
            raise ResidentError(0, f"the resident sandbox did not start the run: {text.removeprefix('F ')}")
        return fd

    def ended(self) -> Ended:
        """How the run just started ended (call once its pidfd is readable)."""
        text, fd = self._reply()
        if fd is not None:
            os.close(fd)
        parts = text.split()
        if len(parts) != 5 or parts[0] != "E":
            raise ResidentError(0, f"the resident sandbox said {text[:80]!r} at a run's end")
        status, user, system, maxrss = map(int, parts[1:])
        return Ended(status, (user + system) / 1e6, maxrss)

    def _reply(self) -> tuple[str, int | None]:
        if not select.select([self._socket], [], [], REPLY_SECONDS)[0]:
            raise self._failed(f"did not answer in {REPLY_SECONDS:.0f} s")
        fds = array.array("i")
        try:
            data, ancillary, _, _ = self._socket.recvmsg(256, socket.CMSG_SPACE(fds.itemsize))
        except OSError as exc:
            raise self._failed(f"failed ({exc.strerror})") from exc
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(raw[:len(raw) - len(raw) % fds.itemsize])
        if not data:
            raise self._failed("ended")
        return data.decode("utf-8", "replace"), (fds[0] if fds else None)

    def _failed(self, what: str) -> ResidentError:
        """The error for a resident that failed (``what`` it did), with what bwrap or the init printed; it is
        ended first (given a moment to finish saying why)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(0.5)
        said = os.pread(self._said, 2000, 0).decode("utf-8", "replace").strip()
        self.close()
        return ResidentError(0, f"the resident sandbox {what}" + (f": {said}" if said else ""))

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None and self._socket.fileno() >= 0

    def close(self) -> None:
        """End the sandbox (its init exits when the socket closes) and reap bwrap."""
        if os.getpid() != self._owner or self._socket.fileno() < 0:
            return
        self._socket.close()
        os.close(self._said)
        try:
            self._process.wait(REPLY_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(self._process.pid, 9)
            self._process.wait()


def check(init: Path, uid: int) -> str | None:
    """None when a resident sandbox starts here and runs a program as ``uid``, PID 2 of a fresh PID namespace,
    that writes its /tmp and box; else why not (for the probe)."""
    script = f'test "$(id -u)" = {uid} && test "$$" = 2 && test -d /proc/1 && touch /tmp/probe /run/box/probe'
    with tempfile.TemporaryDirectory(prefix="npuzzle-probe-") as empty:
        os.chown(empty, uid, uid)
        sandbox = None
        read, write = os.pipe()
        try:
            sandbox = Resident(init, Path(empty), [], None)
            null = os.open(os.devnull, os.O_RDONLY)
            try:
                pidfd = sandbox.enter("probe", bubblewrap.init_arguments((), (), uid), ["/bin/sh", "-c", script],
                                      {"PATH": "/usr/bin:/bin"}, (null, write, write))
            finally:
                os.close(null)
                os.close(write)
                write = -1
            os.close(pidfd)
            ended = sandbox.ended()
            said = os.read(read, 500).decode("utf-8", "replace").strip()
        except OSError as exc:
            return str(exc)
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)
            if sandbox is not None:
                sandbox.close()
    if ended.status != 0:
        return f"a probe run ended with status {ended.status >> 8}{': ' + said if said else ''}"
    return None


def pid_of(pidfd: int) -> int:
    """The pid (in our PID namespace) of the process ``pidfd`` refers to; -1 once it has been reaped."""
    with open(f"/proc/self/fdinfo/{pidfd}") as info:
        for line in info:
            if line.startswith("Pid:"):
                return int(line.split()[1])
    return -1


class Residents:
    """A box's resident sandboxes, one per set of read-only binds, the least recently used ended first."""

    def __init__(self, box: Path) -> None:
        self.box = box
        self._kept: OrderedDict[tuple[Path, tuple[Path, ...], bytes | None], Resident] = OrderedDict()

    def get(self, init: Path, paths: Sequence[Path], program: bytes | None, fresh: bool = False) -> Resident:
        """The resident for these binds and seccomp ``program`` (started if there is none, or it died, or
        ``fresh``)."""
        key = (init, tuple(paths), program)
        found = self._kept.pop(key, None)
        if found is not None and (fresh or not found.alive):
            found.close()
            found = None
        if found is None:
            found = Resident(init, self.box, paths, program)
            while len(self._kept) >= KEPT:
                self._kept.popitem(last=False)[1].close()
        self._kept[key] = found
        return found

    def pids(self) -> list[int]:
        """The pids of the live residents' bwrap (for benches that count their CPU)."""
        return [each.pid for each in self._kept.values() if each.alive]

    def close(self) -> None:
        kept, self._kept = list(self._kept.values()), OrderedDict()
        for each in kept:
            each.close()
