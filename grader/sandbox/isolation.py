"""Which isolation layers work on this machine: the plan every run of this process follows.

The backend that holds a run (:mod:`grader.sandbox.backends`), strongest first; each one missing
degrades to the next, and the degrade is said once (a :class:`SandboxWarning`):

- ``bwrap`` (:mod:`~grader.sandbox.backends.bubblewrap`): no network, own PID, mount, IPC and UTS
  namespaces, a read-only view of the system directories, only the run's folder writable.
- ``unshare`` (:mod:`~grader.sandbox.backends.unshare`, root only): the same namespaces, but the host
  file system stays visible (file permissions and the uid drop are then the only protection).
- ``reaper`` (:mod:`~grader.sandbox.backends.bare`): no namespace; a per-run child-subreaper shim
  (``grader/sandbox/reaper.py``) kills and reaps whatever the submission leaves behind.

:func:`probe` picks the backend once per process (what ``grade doctor`` shows); the runner, the
command builder and the slots ask that object, never the mode's name.

Independent of those: POSIX ``rlimits`` (always on POSIX); as root, a ``uid-drop`` to a
per-run uid from a machine-wide pool (:mod:`grader.sandbox.uids`; ``nobody`` when the pool
cannot be had), run in a fresh user namespace of its own under bwrap (``userns``: its own
keyrings); ``cgroup`` slot groups (:mod:`grader.sandbox.cgroups`) that count a run's memory,
processes and CPU time whole. Where a layer is missing its reason is kept for ``grade doctor``.

``NPUZZLE_SANDBOX_DISABLE`` (comma-separated layer names) switches layers off, to test
the degrade path or to work around a broken one.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import backends, cgroups, seccomp, uids
from grader.sandbox.backends import bubblewrap
from grader.sandbox.backends.base import Backend, LayerStatus, tool, try_command
from grader.sandbox.backends.bubblewrap import USERNS_ARGV
from grader.sandbox.entry import boxinit, resident
from grader.sandbox.folders import tmpfs

DISABLE_ENV = "NPUZZLE_SANDBOX_DISABLE"
NOBODY = 65534


class SandboxWarning(UserWarning):
    """A stronger isolation layer is unavailable here; the runner uses a weaker one."""


@dataclass(frozen=True)
class Plan:
    """The layers chosen for this process, probed once."""

    backend: Backend                   # what holds each run (bwrap, unshare or the bare reaper shim)
    drop_uid: int | None               # run the submission as this uid (root only)
    rlimits: bool                      # POSIX rlimits on the submission
    statuses: tuple[LayerStatus, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())
    uid_pool: uids.UidPool | None = None      # a uid per run (root); else every run is ``drop_uid``
    cgroups: cgroups.Hierarchy | None = None  # where the slot groups go; None: rlimits alone
    userns: bool = False                      # under bwrap, each run in a user namespace of its own
    workdir_tmpfs: bool = False               # each run's workdir on a size-capped tmpfs (root)
    seccomp: bytes | None = None              # the system-call filter every run starts under
    init: Path | None = None                  # bwrap's compiled init (grader.sandbox.entry.boxinit); None: sh + setpriv
    resident: Path | None = None              # the init, when a case's runs enter a resident sandbox per box

    @property
    def holds(self) -> bool:
        """Whether the backend holds each run's first process until the runner admits it into its slot (bwrap
        without the compiled init, which joins the slot itself)."""
        return self.backend.held and self.init is None

    @property
    def layers(self) -> list[str]:
        names = ["tempdir", "output-cap", "wall-timeout", "process-group"]
        if self.rlimits:
            names.append("rlimits")
        names += self.backend.layers
        if not self.backend.namespaces:
            names += [s.name for s in self.statuses if s.available and s.name == "subreaper"]
        if self.uid_pool is not None:
            names.append(f"per-run-uid:{self.uid_pool.base}+{self.uid_pool.size}")
        elif self.drop_uid is not None:
            names.append(f"uid-drop:{self.drop_uid}")
        if self.userns:
            names.append("own-userns")
        if self.workdir_tmpfs:
            names.append("workdir-tmpfs")
        if self.seccomp is not None:
            names.append("seccomp")
        if self.cgroups is not None:
            names.append(f"cgroup-v{self.cgroups.version}:" + ",".join(self.cgroups.controllers))
        return names


def disabled_from_env() -> frozenset[str]:
    raw = os.environ.get(DISABLE_ENV, "")
    return frozenset(part.strip() for part in raw.split(",") if part.strip())


def _probe_cgroup(disabled: frozenset[str]) -> tuple[LayerStatus, cgroups.Hierarchy | None]:
    if "cgroup" in disabled:
        return LayerStatus("cgroup", False, "disabled by " + DISABLE_ENV), None
    found = cgroups.detect() if sys.platform.startswith("linux") else "Linux only"
    if isinstance(found, str):
        return LayerStatus("cgroup", False, f"{found}; memory is bounded by rlimits alone (shmem and memfd "
                                            "uncounted) and CPU time per process"), None
    return LayerStatus("cgroup", True, f"{found.describe()}: one group per worker slot; memory incl. shmem, "
                                       f"memfd and SysV shm (OOM kill = MLE), at most {cgroups.PIDS_MAX} tasks, "
                                       "CPU time of the whole run"), found


def _probe_tmpfs(disabled: frozenset[str], as_root: bool, backend: Backend) -> LayerStatus:
    private_tmp = backend.tmp_view
    if "tmpfs" in disabled:
        why = "disabled by " + DISABLE_ENV
    elif not as_root:
        why = "mounting one needs root"
    else:
        with tempfile.TemporaryDirectory(prefix="npuzzle-probe-") as folder:
            try:
                tmpfs.mount_tmpfs(Path(folder), 65536)
                tmpfs.unmount(folder)
                why = None
            except OSError as exc:
                why = exc.strerror or str(exc)
    if why is None:
        return LayerStatus("tmpfs", True, f"the workdir on a size-capped tmpfs (its content + 64 MB, charged to the "
                                          f"run's cgroup), {private_tmp}; stdout/stderr are pipes read with a cap")
    return LayerStatus("tmpfs", False, f"the workdir stays on the host disk, bounded per file by RLIMIT_FSIZE only "
                                       f"({why}); {private_tmp}; stdout/stderr are still pipes read with a cap")


def _probe_uid_pool(disabled: frozenset[str], as_root: bool) -> tuple[LayerStatus, uids.UidPool | None]:
    if "per-run-uid" in disabled or "uid-drop" in disabled:
        return LayerStatus("per-run-uid", False, "disabled by " + DISABLE_ENV), None
    if not as_root:
        return LayerStatus("per-run-uid", False, f"needs root (runs share the grader's uid {os.geteuid()})"), None
    try:
        pool = uids.UidPool.from_env()
        pool.prepare()
    except OSError as exc:
        return LayerStatus("per-run-uid", False, f"{exc.strerror or exc}; every run is uid {NOBODY}"), None
    return LayerStatus("per-run-uid", True, f"uids {pool.base}..{pool.base + pool.size - 1}, one per run at a "
                                            f"time on this machine (flock in {pool.lock_dir})"), pool


def _probe_userns(uid: int) -> LayerStatus:
    why = try_command([tool("setpriv"), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *USERNS_ARGV,
                       "/bin/true"])
    if why is not None:
        return LayerStatus("userns", False, f"unshare --user fails as uid {uid} ({why}): runs of one uid would share "
                                            "its keyrings")
    return LayerStatus("userns", True, "each run in a user namespace of its own: keyrings die with the run")


def _probe_seccomp(disabled: frozenset[str], backend: Backend, drop_uid: int | None) -> LayerStatus:
    """The filter for this machine's architecture, and whether the backend starts a run under it."""
    if "seccomp" in disabled:
        return LayerStatus("seccomp", False, "disabled by " + DISABLE_ENV)
    program = seccomp.program()
    if program is None:
        return LayerStatus("seccomp", False, f"no system-call table for {os.uname().machine}: file locks, io_uring, "
                                             "bpf and the like are refused only by this host's own settings")
    try:
        supported = "Seccomp:" in Path("/proc/self/status").read_text()
    except OSError:
        supported = False
    if not supported:
        return LayerStatus("seccomp", False, "this kernel has no seccomp filters (no Seccomp: in /proc/self/status)")
    why = backend.probe_filter(program, drop_uid)
    if why is not None:
        return LayerStatus("seccomp", False, why)
    return LayerStatus("seccomp", True, "file locks, leases, inotify, io_uring, bpf, perf_event_open, userfaultfd, "
                                        "keyrings, ptrace, mount, unshare/setns and the like refused (EPERM)")


def _probe_init(disabled: frozenset[str], backend: Backend, drop_uid: int | None) -> tuple[LayerStatus, Path | None]:
    """The compiled init of bwrap's sandboxes, if it builds and starts a run (as ``drop_uid``) here."""
    if not backend.held:
        return LayerStatus("init", False, f"not needed: {backend.name} starts runs with its own shim"), None
    if "init" in disabled:
        return LayerStatus("init", False, "disabled by " + DISABLE_ENV + ": a sh and setpriv start each run"), None
    built = boxinit.build()
    if isinstance(built, str):
        return LayerStatus("init", False, f"{built}; a sh and setpriv start each run"), None
    with tempfile.TemporaryDirectory(prefix="npuzzle-probe-") as empty:
        init = (built, bubblewrap.init_arguments((), (), drop_uid))
        check = f'test "$(id -u)" = {drop_uid if drop_uid is not None else os.geteuid()}'
        why = try_command(bubblewrap.prefix(tool("bwrap"), Path(empty), [], drop_uid, init=init)
                          + ["/bin/sh", "-c", check])
    if why is not None:
        return LayerStatus("init", False, f"{built} fails under bwrap ({why}); a sh and setpriv start each run"), None
    return LayerStatus("init", True, f"{built}: each sandbox's PID 1 joins its slot, sets the rlimits and drops "
                                     "the uid in one program (no sh, no setpriv, no move by pid)"), built


def _probe_resident(disabled: frozenset[str], init: Path | None,
                    drop_uid: int | None) -> tuple[LayerStatus, Path | None]:
    """Whether a case's runs can enter a resident sandbox per box (:mod:`grader.sandbox.entry.resident`)."""
    if init is None or drop_uid is None:
        needs = "the compiled init" if init is None else "root (a uid per run)"
        return LayerStatus("resident", False, f"not used: it needs {needs}; bwrap starts each run"), None
    if "resident" in disabled:
        return LayerStatus("resident", False, "disabled by " + DISABLE_ENV + ": bwrap starts each run"), None
    why = resident.check(init, drop_uid)
    if why is not None:
        return LayerStatus("resident", False, f"it fails here ({why}); bwrap starts each run"), None
    return LayerStatus("resident", True, "a case's runs enter a sandbox bwrap built once per box, each in its own "
                                         "PID, mount, network, IPC and UTS namespaces with a fresh /proc and "
                                         "/tmp"), init


def probe(disabled: frozenset[str] = frozenset()) -> Plan:
    """Probe every layer (not cached; see :func:`plan`)."""
    statuses: list[LayerStatus] = []
    is_posix = os.name == "posix"
    rlimits = LayerStatus("rlimits", is_posix and "rlimits" not in disabled,
                          "CPU, file size, open files, address space (data + -Xmx for the JVM)"
                          if is_posix else "not a POSIX system")
    statuses.append(rlimits)
    as_root = is_posix and os.geteuid() == 0
    if "uid-drop" in disabled:
        uid_status = LayerStatus("uid-drop", False, "disabled by " + DISABLE_ENV)
    elif as_root:
        uid_status = LayerStatus("uid-drop", True,
                                 f"the grader runs as root; submissions never do (a per-run uid, else {NOBODY})")
    else:
        uid_status = LayerStatus("uid-drop", False, f"not needed: the grader runs as uid {os.geteuid()}")
    statuses.append(uid_status)
    drop_uid = NOBODY if uid_status.available else None
    pool_status, pool = _probe_uid_pool(disabled, uid_status.available)
    statuses.append(pool_status)
    userns = False
    if pool is not None and "userns" not in disabled and "bwrap" not in disabled:
        userns_status = _probe_userns(NOBODY)
        userns = userns_status.available
        statuses.append(userns_status)

    chosen = _choose_backend(disabled, drop_uid, statuses)
    cgroup_status, hierarchy = _probe_cgroup(disabled)
    statuses.append(cgroup_status)
    tmpfs_status = _probe_tmpfs(disabled, uid_status.available, chosen)
    statuses.append(tmpfs_status)
    filter_status = _probe_seccomp(disabled, chosen, drop_uid)
    statuses.append(filter_status)
    init_status, init = _probe_init(disabled, chosen, drop_uid)
    statuses.append(init_status)
    resident_status, resident_init = _probe_resident(disabled, init, drop_uid)
    statuses.append(resident_status)
    program = seccomp.program() if filter_status.available else None
    if program is not None and chosen.userns:
        statuses = [LayerStatus(s.name, False, "not needed: the seccomp filter refuses the keyring calls (and the "
                                              "unshare that would make the namespace)") if s.name == "userns" else s
                    for s in statuses]

    notes: list[str] = []
    strongest = backends.NAMESPACED[0]
    if chosen is not strongest:
        why = next(s.reason for s in statuses if s.name == strongest.name)
        notes.append(f"sandbox: {strongest.name} unavailable ({why}); using {chosen.as_fallback}")
    if hierarchy is None:
        notes.append(f"sandbox: no cgroups ({cgroup_status.reason})")
    # The filter refuses the keyring calls, which a user namespace per run kept apart; and it
    # refuses unshare, so the step that made one (after bwrap loads the filter) could not run.
    return Plan(chosen, drop_uid, rlimits.available, tuple(statuses), tuple(notes), pool, hierarchy,
                userns and chosen.userns and program is None, tmpfs_status.available, program, init, resident_init)


def _choose_backend(disabled: frozenset[str], drop_uid: int | None, statuses: list[LayerStatus]) -> Backend:
    """The strongest backend that works here (each one's status goes to ``statuses``), else the bare shim."""
    chosen: Backend | None = None
    for backend in backends.NAMESPACED:
        if backend.name in disabled:
            status = LayerStatus(backend.name, False, "disabled by " + DISABLE_ENV)
        elif not sys.platform.startswith("linux"):
            status = LayerStatus(backend.name, False, "Linux only")
        else:
            status = backend.probe(drop_uid)
        statuses.append(status)
        if status.available and chosen is None:
            chosen = backend
    sub = backends.BARE.probe(drop_uid) if "subreaper" not in disabled else LayerStatus("subreaper", False, "disabled")
    statuses.append(sub)
    return chosen or backends.BARE


_PROBING = threading.Lock()


@functools.cache
def _cached_plan(disabled: frozenset[str]) -> Plan:
    chosen = probe(disabled)
    for note in chosen.notes:  # said once per process, when the layers are first probed
        warnings.warn(note, SandboxWarning, stacklevel=4)
    return chosen


def plan() -> Plan:
    """The layers for this process: probed on first use, cached per ``NPUZZLE_SANDBOX_DISABLE``."""
    with _PROBING:  # parallel runs start together: probe (and warn) once
        return _cached_plan(disabled_from_env())

