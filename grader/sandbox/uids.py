"""Per-run identities: a pool of high uids, each held by one run at a time on the whole machine.

Every limit and every piece of kernel state keyed by uid (``RLIMIT_NPROC``, the user and
persistent keyrings, SysV IPC objects' owners, files in shared temp folders) is then one
run's own: a run that hogs its process slots or stores something in its keyring reaches no
other run, in this ``grade`` or in another one beside it.

A uid is held through ``flock`` on ``<lock dir>/<uid>.lock`` (a root-owned 0700 folder, by
default ``/run/npuzzle-grader/uids``), so every ``grade`` process on the machine shares one
pool and the kernel drops a dead holder's lock. The holder writes its pid into the file and
empties it on release: a file found non-empty was held by a grader that died mid-run, and
the uid is scrubbed (:func:`scrub`) before it is used again.

Keyrings need no scrub between clean runs: under bwrap each run gets a fresh user
namespace (which has its own user, session and persistent keyrings, gone with it), and the
reaper shim clears the uid's keyrings before it runs the submission.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import signal
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

BASE_ENV, SIZE_ENV = "NPUZZLE_UID_BASE", "NPUZZLE_UID_POOL"
# Far above login users (1000-59999), systemd's dynamic users (61184-65519) and the usual
# subordinate-uid ranges (100000 + 65536 per user), and below 2**31 for tools that sign uids.
DEFAULT_BASE = 2_000_000_000
DEFAULT_SIZE = 256
LOCK_DIR = Path("/run/npuzzle-grader/uids")
WAIT_SECONDS = 60.0
SHARED_TEMP_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue")
IPC_RMID = 0


class UidPoolError(OSError):
    """No per-run uid can be had: a fault of the machine or of the grader's set-up, never of a run."""


@dataclass
class Lease:
    """One uid, held until :meth:`release`."""

    uid: int
    fd: int
    stale: bool        # its last holder died mid-run: :func:`scrub` ran before this lease

    def release(self) -> None:
        if self.fd >= 0:
            try:
                os.ftruncate(self.fd, 0)
            finally:
                os.close(self.fd)  # drops the flock
                self.fd = -1


class UidPool:
    """``size`` uids from ``base``; :meth:`acquire` blocks (up to ``wait``) while all are held."""

    def __init__(self, base: int = DEFAULT_BASE, size: int = DEFAULT_SIZE, lock_dir: Path = LOCK_DIR,
                 wait: float = WAIT_SECONDS) -> None:
        self.base, self.size, self.lock_dir, self.wait = base, size, lock_dir, wait
        self._next = 0
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls) -> UidPool:
        base = int(os.environ.get(BASE_ENV, DEFAULT_BASE))
        size = int(os.environ.get(SIZE_ENV, DEFAULT_SIZE))
        if not (base >= 1000 and size >= 1 and base + size < 2**31 - 1):
            raise UidPoolError(errno.EINVAL, f"{BASE_ENV}={base} {SIZE_ENV}={size}: the pool must lie "
                                             f"within 1000..{2**31 - 2}")
        return cls(base, size)

    def prepare(self) -> None:
        """Make the lock folder (root-owned, 0700) and refuse one that anyone else could tamper with."""
        self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(self.lock_dir)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            raise UidPoolError(errno.EPERM, f"{self.lock_dir} must be a folder owned by uid {os.geteuid()} and "
                                            "writable by it alone (it holds the per-run uid locks)")

    def acquire(self) -> Lease:
        deadline = time.monotonic() + self.wait
        while True:
            with self._lock:  # threads start their search at different uids
                first, self._next = self._next, (self._next + 1) % self.size
            for step in range(self.size):
                lease = self._try(self.base + (first + step) % self.size)
                if lease is not None:
                    return lease
            if time.monotonic() > deadline:
                raise UidPoolError(errno.EAGAIN, f"all {self.size} per-run uids ({self.base}..."
                                                 f"{self.base + self.size - 1}) stayed held by other runs for "
                                                 f"{self.wait:.0f} s; raise {SIZE_ENV} or run fewer graders at once")
            time.sleep(0.05)

    def _try(self, uid: int) -> Lease | None:
        path = self.lock_dir / f"{uid}.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise UidPoolError(exc.errno, f"cannot open the uid lock {path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        stale = bool(os.pread(fd, 64, 0).strip())
        if stale:
            scrub(uid)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return Lease(uid, fd, stale)


def processes_of(uid: int) -> list[int]:
    """Pids whose real, effective or saved uid is ``uid`` (from /proc/PID/status)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status", "rb") as status:
                    line = next(row for row in status if row.startswith(b"Uid:"))
            except (OSError, StopIteration):
                continue
            if str(uid).encode() in line.split()[1:4]:
                found.append(int(name))
    return found


def kill_processes_of(uid: int, rounds: int = 50) -> None:
    for _ in range(rounds):
        pids = processes_of(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)


def scrub_ipc(uid: int) -> int:
    """Remove the SysV shared memory, semaphores and message queues ``uid`` owns or made; how many."""
    libc = ctypes.CDLL(None, use_errno=True)
    removed = 0
    for kind, remover in (("shm", libc.shmctl), ("sem", libc.semctl), ("msg", libc.msgctl)):
        try:
            rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        header = rows[0].split() if rows else []
        for row in rows[1:]:
            values = dict(zip(header, row.split()))
            if str(uid) in (values.get("uid"), values.get("cuid")):
                args: tuple[int | None, ...] = (int(values["shmid" if kind == "shm" else kind + "id"]),)
                args += (0, IPC_RMID, None) if kind == "sem" else (IPC_RMID, None)
                removed += remover(*args) == 0
    return removed


def scrub_files(uid: int, folders: tuple[str, ...] = SHARED_TEMP_DIRS) -> int:
    """Remove what ``uid`` left at the top of the machine's shared temp folders; how many entries."""
    removed = 0
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)  # fd-based on Linux: never follows a link out
                else:
                    os.unlink(entry.path)
                removed += 1
            except OSError:
                pass
    return removed


def scrub(uid: int) -> None:
    """Everything a uid can leave on the host outside a run's namespaces: processes, IPC, temp files.

    (Its keyrings in the host's user namespace are never used by a run: see the module's doc.)
    """
    kill_processes_of(uid)
    scrub_ipc(uid)
    scrub_files(uid)
