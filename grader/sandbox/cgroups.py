"""Control groups per worker slot: a run's memory (shmem, memfd and SysV shm included), its
process count, and the CPU time of all its processes together.

A slot is one cgroup per controller, made once and reused by every run the slot hosts (a
run pays for a few small file writes and reads, not a mkdir).
Groups are named ``npuzzle-grader-<pid>-<slot>`` after the grader process that made them,
directly under the grader's own cgroup of each hierarchy (so a machine's or container's
limits still bind the runs, and each slot weighs as much as one process for the CPU
scheduler); :mod:`grader.sandbox.sweep` removes those of dead graders.

cgroup v2 is used when its ``memory``, ``pids`` and ``cpu`` controllers can be enabled under
the grader's cgroup (or, failing that, are enabled at the hierarchy's root); otherwise
cgroup v1 (separate ``memory``, ``pids``, ``cpuacct``/``cpu`` hierarchies); otherwise :func:`detect` says why,
and the runner keeps the rlimits alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox.limits import SHIM_EXIT, SHIM_FAULT

CGROUP_ROOT = Path("/sys/fs/cgroup")
PREFIX = "npuzzle-grader-"
V1_CONTROLLERS = ("memory", "pids", "cpuacct", "cpu")
V2_CONTROLLERS = ("memory", "pids", "cpu")
KILL_ROUNDS = 50
# What a run's processes (threads included) may number, per slot: javac and the JVM need a few
# dozen; a fork storm stops here instead of at the machine's pid_max.
PIDS_MAX = 1024


class CgroupError(OSError):
    """A cgroup file could not be made or written: a fault of the machine, not of a run."""


@dataclass(frozen=True)
class Hierarchy:
    """Where this grader's slot groups go: ``version`` 1 or 2, and the parent folder per controller."""

    version: int
    parents: dict[str, Path]

    @property
    def controllers(self) -> list[str]:
        return sorted(self.parents)

    def describe(self) -> str:
        where = sorted({str(p) for p in self.parents.values()})
        return f"cgroup v{self.version} ({', '.join(self.controllers)}) under {', '.join(where)}"


def own_paths(proc_cgroup: str) -> dict[str, str]:
    """``/proc/self/cgroup`` as {controller: path}; the v2 line's key is ``""``."""
    paths = {}
    for line in proc_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for name in parts[1].split(",") if parts[1] else [""]:
                paths[name] = parts[2]
    return paths


def mounts(mountinfo: str) -> list[tuple[str, Path, str, set[str]]]:
    """(fs type, mount point, root inside the hierarchy, super options) of each cgroup mount, from
    ``/proc/self/mountinfo``."""
    found = []
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((tail[0], Path(fields[4]), fields[3], set(tail[2].split(","))))
    return found


def inside(mount: Path, mount_root: str, own: str) -> Path:
    """Where the cgroup ``own`` (a path of the hierarchy) is under ``mount``, which shows the hierarchy from
    ``mount_root`` down (a container's mount shows its own cgroup as the root)."""
    root = mount_root.rstrip("/")
    relative = own[len(root):] if root and (own == root or own.startswith(root + "/")) else own
    return mount / relative.lstrip("/")


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK)


def detect(proc_cgroup: str | None = None, mountinfo: str | None = None) -> Hierarchy | str:
    """The usable hierarchy, or why there is none (arguments: the two /proc files, for tests)."""
    try:
        proc_cgroup = Path("/proc/self/cgroup").read_text() if proc_cgroup is None else proc_cgroup
        mountinfo = Path("/proc/self/mountinfo").read_text() if mountinfo is None else mountinfo
    except OSError as exc:
        return f"cannot read /proc: {exc.strerror}"
    own, mounted = own_paths(proc_cgroup), mounts(mountinfo)
    why: list[str] = []
    for kind, mount, root, _ in mounted:
        if kind == "cgroup2" and "" in own:
            # The grader's own cgroup first; then the hierarchy's root, which may hold processes and
            # controllers both (under systemd the grader's slice holds other processes: EBUSY).
            for folder in dict.fromkeys([inside(mount, root, own[""]), mount]):
                found = _v2_parent(folder)
                if isinstance(found, Hierarchy):
                    return found
                why.append(found)
    parents: dict[str, Path] = {}
    for kind, mount, root, options in mounted:
        for name in V1_CONTROLLERS:
            if kind == "cgroup" and name in options and name in own:
                folder = inside(mount, root, own[name])
                if _writable(folder):
                    parents[name] = folder
                else:
                    why.append(f"v1 {name}: {folder} is not writable")
    if "memory" in parents and "cpuacct" in parents:
        return Hierarchy(1, parents)
    if not mounted:
        return "no cgroup file system is mounted"
    if parents:
        why.append(f"v1 has only {', '.join(sorted(parents))} (memory and cpuacct are needed)")
    return "; ".join(why) or "no usable memory/cpu controllers"


def _v2_parent(folder: Path) -> Hierarchy | str:
    try:
        available = set((folder / "cgroup.controllers").read_text().split())
    except OSError as exc:
        return f"v2: cannot read {folder}/cgroup.controllers: {exc.strerror}"
    missing = [name for name in V2_CONTROLLERS if name not in available]
    if missing:
        return f"v2 at {folder} lacks the {', '.join(missing)} controller(s)"
    try:
        enabled = set((folder / "cgroup.subtree_control").read_text().split())
        wanted = " ".join(f"+{name}" for name in V2_CONTROLLERS if name not in enabled)
        if wanted:
            (folder / "cgroup.subtree_control").write_text(wanted)
    except OSError as exc:  # EBUSY: the folder holds processes (only the root may)
        return (f"v2: cannot enable {', '.join(V2_CONTROLLERS)} under {folder} ({exc.strerror}; "
                "run grade in a delegated cgroup of its own, e.g. systemd-run --scope -p Delegate=yes)")
    return Hierarchy(2, {name: folder for name in V2_CONTROLLERS})


def _read(path: Path | str) -> str:
    """A cgroup file's text, read with plain system calls (several files per run: pathlib's text layer is
    most of their cost)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks).decode("ascii", "replace")


def _read_int(path: Path, key: str | None = None) -> int:
    """An integer file, or the value of ``key`` in a flat-keyed file; 0 when absent."""
    try:
        text = _read(path)
    except FileNotFoundError:
        return 0
    if key is None:
        return int(text.split()[0]) if text.strip() else 0
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return int(value)
    return 0


@dataclass(frozen=True)
class Usage:
    """What one run did, from its slot's counters."""

    cpu_seconds: float
    oom_killed: bool           # the kernel killed a process at the memory limit
    memory_peak_bytes: int     # 0 where the kernel keeps no peak
    pids_limit_hit: bool       # a fork or thread creation failed at the process limit
    run_peak_bytes: int | None = None  # the peak of this run alone (memory.peak reset at its start), if the kernel can


@dataclass
class Start:
    cpu: float
    oom_kills: int
    pids_max_events: int
    peak_fd: int | None = None
    """An fd on memory.peak reset when the run started (Linux 6.12+ keeps a peak per writer's fd): reads through
    it give this run's peak alone, where the file itself holds the slot's since it was made."""

    def close(self) -> None:
        if self.peak_fd is not None:
            os.close(self.peak_fd)
            self.peak_fd = None

    def run_peak(self) -> int | None:
        """The run's own peak, read once (the fd is closed after), or None where the kernel cannot reset it."""
        if self.peak_fd is None:
            return None
        try:
            return int(os.pread(self.peak_fd, 64, 0).split()[0])
        except (OSError, ValueError, IndexError):
            return None
        finally:
            self.close()


@dataclass
class SlotGroup:
    """One slot's groups: configure, join a run (:meth:`admit`, or :func:`join_argv` where no bwrap holds the
    run's first process), read :meth:`usage`, :meth:`kill_all`."""

    hierarchy: Hierarchy
    name: str
    dirs: dict[str, Path] = field(default_factory=dict)
    _limits: tuple[int, int] | None = None

    def create(self) -> SlotGroup:
        for controller, parent in self.hierarchy.parents.items():
            folder = parent / self.name
            try:
                folder.mkdir(exist_ok=True)
            except OSError as exc:
                raise CgroupError(exc.errno, f"cannot make the run's cgroup {folder}: {exc.strerror}") from None
            self.dirs[controller] = folder
        return self

    @property
    def members(self) -> list[Path]:
        """Each distinct ``cgroup.procs`` a run joins (v2 has one folder for all controllers)."""
        return sorted({folder / "cgroup.procs" for folder in self.dirs.values()})

    @property
    def joins_itself(self) -> bool:
        """Whether the joining ``sh`` of :func:`join_argv` moves itself by writing ``0`` into each v1 ``tasks``.

        Moving a process by its pid (into ``cgroup.procs`` or ``tasks``) takes the kernel's machine-wide
        threadgroup lock, whose first taker waits for an RCU grace period: ~10 ms of sleep, measured
        here. A single thread moving itself (``0`` into v1's ``tasks``) takes no such lock. v2 has no such
        file for a domain cgroup. (bwrap's runs join through the sandbox's init, :func:`open_joins`; with no
        init compiled they are moved in by the runner, :meth:`admit`, sleep and all: a ``sh`` before bwrap
        to avoid it costs an exec per run, which on a busy machine measured worse; docs/performance.md.)"""
        return self.hierarchy.version == 1

    @property
    def self_joins(self) -> list[Path]:
        """The files a process writes ``0`` (itself) into to join the slot: each v1 ``tasks`` (a thread moving
        itself, no lock to wait for: :attr:`joins_itself`), else v2's ``cgroup.procs``."""
        if self.joins_itself:
            return [folder / "tasks" for folder in sorted(set(self.dirs.values()))]
        return self.members

    def open_joins(self) -> list[int]:
        """:attr:`self_joins` opened for writing (close-on-exec), for a process started in a sandbox that cannot
        see them (bwrap's init writes ``0`` into each); the caller closes them. Raises CgroupError."""
        fds: list[int] = []
        try:
            for path in self.self_joins:
                fds.append(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            raise CgroupError(exc.errno, f"a run could not join its cgroup {self.name}: cannot open "
                                         f"{exc.filename}: {exc.strerror}") from None
        return fds

    def configure(self, memory_bytes: int, pids_max: int) -> None:
        """Set the limits (rewritten only when they change) and reset the peak counters."""
        if self._limits != (memory_bytes, pids_max):
            if self.hierarchy.version == 2:
                self._write("memory", "memory.max", memory_bytes)
                self._write("memory", "memory.swap.max", 0, optional=True)
            else:
                self._set_v1_memory(memory_bytes)
            self._write("pids", "pids.max", pids_max, optional=self.hierarchy.version == 1)
            self._limits = (memory_bytes, pids_max)
        if self.hierarchy.version == 1:
            self._write("memory", "memory.max_usage_in_bytes", 0, optional=True)
            self._write("memory", "memory.memsw.max_usage_in_bytes", 0, optional=True)
        else:
            self._write("memory", "memory.peak", "reset", optional=True)  # Linux >= 6.12

    def _set_v1_memory(self, value: int) -> None:
        # memsw (memory + swap) must stay >= the memory limit: the order depends on the direction.
        names = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
        try:
            for name in names:
                self._write("memory", name, value, optional=name != names[0])
        except CgroupError:
            for name in reversed(names):
                self._write("memory", name, value, optional=name != names[0])

    def _write(self, controller: str, name: str, value: int | str, optional: bool = False) -> None:
        folder = self.dirs.get(controller)
        if folder is None:
            return
        try:
            fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
            try:
                os.write(fd, str(value).encode())
            finally:
                os.close(fd)
        except OSError as exc:
            if not optional:
                raise CgroupError(exc.errno, f"cannot write {value} to {folder / name}: {exc.strerror}") from None

    def cpu_seconds(self) -> float:
        if self.hierarchy.version == 2:
            return _read_int(self.dirs["cpu"] / "cpu.stat", "usage_usec") / 1e6
        return _read_int(self.dirs["cpuacct"] / "cpuacct.usage") / 1e9

    def _oom_kills(self) -> int:
        folder = self.dirs["memory"]
        if self.hierarchy.version == 2:
            return _read_int(folder / "memory.events", "oom_kill")
        return _read_int(folder / "memory.oom_control", "oom_kill")

    def _pids_events(self) -> int:
        folder = self.dirs.get("pids")
        return _read_int(folder / "pids.events", "max") if folder else 0

    def start(self) -> Start:
        return Start(self.cpu_seconds(), self._oom_kills(), self._pids_events(), self._fresh_peak())

    def _fresh_peak(self) -> int | None:
        """An fd on the slot's memory.peak, reset to now through it; None on cgroup v1 or a kernel before 6.12."""
        if self.hierarchy.version != 2 or "memory" not in self.dirs:
            return None
        try:
            fd = os.open(self.dirs["memory"] / "memory.peak", os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            os.write(fd, b"reset\n")
        except OSError:
            os.close(fd)
            return None
        return fd

    def usage(self, start: Start) -> Usage:
        folder = self.dirs["memory"]
        peak = _read_int(folder / ("memory.peak" if self.hierarchy.version == 2 else "memory.max_usage_in_bytes"))
        return Usage(cpu_seconds=max(0.0, self.cpu_seconds() - start.cpu),
                     oom_killed=self._oom_kills() > start.oom_kills, memory_peak_bytes=peak,
                     pids_limit_hit=self._pids_events() > start.pids_max_events, run_peak_bytes=start.run_peak())

    def admit(self, pid: int) -> None:
        """Move process ``pid`` (a run's first, held before it runs anything of the run's) into the slot."""
        for procs in self.members:
            try:
                procs.write_text(str(pid))
            except OSError as exc:
                raise CgroupError(exc.errno, f"a run could not join its cgroup {self.name}: cannot write {procs}: "
                                             f"{exc.strerror}") from None

    def threads(self) -> list[int]:
        """Every thread (tid) in the slot now: v2's ``cgroup.threads``, v1's ``tasks`` of the CPU accounting group."""
        path = self.dirs["cpu"] / "cgroup.threads" if self.hierarchy.version == 2 else self.dirs["cpuacct"] / "tasks"
        try:
            return [int(line) for line in _read(path).split()]
        except OSError:
            return []

    def pids(self) -> list[int]:
        found: set[int] = set()
        for procs in self.members:
            with contextlib.suppress(OSError):
                found.update(map(int, _read(procs).split()))
        return sorted(found)

    def kill_all(self, spare: frozenset[int] = frozenset(), uid: int | None = None) -> int:
        """SIGKILL every process in the slot but ``spare`` (and, given ``uid``, but those whose real uid is
        another: the sandbox's own root processes) until none is left; the number of rounds it took."""
        kill_file = self.dirs.get("memory", Path("/nonexistent")) / "cgroup.kill"
        if self.hierarchy.version == 2 and kill_file.exists() and not spare:
            with contextlib.suppress(OSError):
                kill_file.write_text("1")
        for rounds in range(KILL_ROUNDS):
            pids = [pid for pid in self.pids() if pid not in spare and (uid is None or _real_uid(pid) == uid)]
            if not pids:
                return rounds
            for pid in pids:  # a killed process forks no more, so each round leaves fewer
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.002 * (rounds + 1))
        raise CgroupError(0, f"processes {pids[:10]} of {self.name} survive SIGKILL")

    def remove(self) -> None:
        self.kill_all()
        for folder in self.dirs.values():
            for _ in range(100):  # the last killed tasks leave the group asynchronously
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def _real_uid(pid: int) -> int | None:
    """From /proc/PID/status, which a process cannot disguise (its /proc folder's owner it can)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            return int(next(line for line in status if line.startswith(b"Uid:")).split()[1])
    except (OSError, StopIteration, ValueError):
        return None


def join_argv(group: SlotGroup, token: str = "") -> list[str]:
    """A ``sh`` prefix that moves itself into the slot, then execs the rest of the argv, so the
    run and everything it starts is counted from its first instruction on. On v1 the shell (one
    thread) writes ``0`` into each ``tasks``: see :attr:`SlotGroup.joins_itself`. A failure says ``token`` (the
    run's secret, :data:`~grader.sandbox.limits.SHIM_FAULT`), in the script's text only: gone at its exec."""
    joins = " && ".join(f"echo 0 > '{path}'" for path in group.self_joins)
    failed = SHIM_FAULT.format(token=token) + "cannot join the run cgroup"
    script = (f"{{ {joins}; }} 2>/dev/null || "
              f"{{ echo '{failed}' >&2; exit {SHIM_EXIT}; }}; exec \"$@\"")
    return ["/bin/sh", "-c", script, "sh"]
