"""Which isolation layers work on this machine, and the command prefix that applies them.

Layers, strongest first; each one missing degrades to the next, and the degrade is said
once (a :class:`SandboxWarning`):

- ``bwrap``: bubblewrap with no network, its own PID, mount, IPC and UTS namespaces, a
  read-only view of the system directories, a fresh size-capped ``/tmp``, and only the
  run's workdir writable (as root, a size-capped copy of it). Nothing else of the host is mounted: the repository, the
  answers, the manifest and other submissions' folders do not exist inside. A shell is
  PID 1 of the namespace: when the submission ends, it exits, and the kernel kills every
  process the submission left behind.
- ``unshare``: util-linux ``unshare`` (root only) for no network and own PID, mount, IPC
  and UTS namespaces, but the host file system stays visible (file permissions and the
  uid drop are then the only protection).
- ``reaper``: no namespace; a per-run child-subreaper shim (``grader/sandbox/reaper.py``) kills and
  reaps whatever the submission leaves behind.

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
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import cgroups, seccomp, uids
from grader.sandbox.folders import tmpfs

DISABLE_ENV = "NPUZZLE_SANDBOX_DISABLE"
NOBODY = 65534
# A run's private /tmp inside bwrap (memory-backed, so small).
TMP_SIZE_BYTES = 64 * 1024 * 1024
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
PROBE_TIMEOUT = 10.0
# Where bwrap binds a run's folder: one fixed, neutral path, so nothing a run reads (cwd, HOME,
# TMPDIR, argv, /proc/self/mountinfo) names its case or its student.
BOX = "/run/box"


class SandboxWarning(UserWarning):
    """A stronger isolation layer is unavailable here; the runner uses a weaker one."""


@dataclass(frozen=True)
class LayerStatus:
    name: str
    available: bool
    reason: str  # why it is off, or what it gives when on


@dataclass(frozen=True)
class Plan:
    """The layers chosen for this process, probed once."""

    namespace: str | None              # "bwrap", "unshare" or None (then the reaper shim)
    drop_uid: int | None               # run the submission as this uid (root only)
    rlimits: bool                      # POSIX rlimits on the submission
    statuses: tuple[LayerStatus, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())
    uid_pool: uids.UidPool | None = None      # a uid per run (root); else every run is ``drop_uid``
    cgroups: cgroups.Hierarchy | None = None  # where the slot groups go; None: rlimits alone
    userns: bool = False                      # under bwrap, each run in a user namespace of its own
    workdir_tmpfs: bool = False               # each run's workdir on a size-capped tmpfs (root)
    seccomp: bytes | None = None              # the system-call filter every run starts under

    @property
    def layers(self) -> list[str]:
        names = ["tempdir", "output-cap", "wall-timeout", "process-group"]
        if self.rlimits:
            names.append("rlimits")
        if self.namespace == "bwrap":
            names += ["bwrap", "no-network", "pid-namespace", "mount-namespace", "read-only-system",
                      "private-tmp"]
        elif self.namespace == "unshare":
            names += ["unshare", "no-network", "pid-namespace", "mount-namespace", "reaper"]
        else:
            names.append("reaper")
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


@functools.cache
def tool(name: str) -> str:
    """The absolute path of a sandbox tool (the submission's PATH is not the grader's)."""
    return shutil.which(name) or name


def disabled_from_env() -> frozenset[str]:
    raw = os.environ.get(DISABLE_ENV, "")
    return frozenset(part.strip() for part in raw.split(",") if part.strip())


@functools.cache
def _system_binds() -> tuple[str, ...]:
    """The system dirs as bwrap binds them (the same for every run of this process)."""
    args: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return tuple(args)


def _ancestors(path: Path) -> list[str]:
    """Dirs bwrap would create 0700 on the way to ``path``, which nobody could then traverse."""
    outside = [str(p) for p in reversed(path.parents) if str(p) != "/"]
    return [p for p in outside if not any(p == d or p.startswith(d + "/") for d in SYSTEM_DIRS)]


def bwrap_prefix(bwrap: str, workdir: Path, readable: list[Path], drop_uid: int | None,
                 info_fd: int | None = None, limiter: Sequence[str] = (), own_userns: bool = False,
                 seccomp_fd: int | None = None, block_fd: int | None = None) -> list[str]:
    """The argv before the submission's: bwrap, the namespace's init shell, the uid drop,
    then ``limiter`` (e.g. ``prlimit ... --``, so only what follows gets the rlimits; a run's
    rlimits are set while ``block_fd`` holds the sandbox instead, :mod:`grader.sandbox.admission`).

    The workdir is bound at :data:`BOX`, the run's cwd; other paths keep their host names
    inside (none names a case or a student). ``seccomp_fd`` holds the system-call filter
    (:mod:`grader.sandbox.seccomp`), loaded before the init shell. As root, bwrap runs privileged (no user namespace
    needed), its init shell stays root, and ``setpriv`` runs the submission as
    ``drop_uid`` with every capability gone; otherwise bwrap maps the caller's own uid
    into a new user namespace. ``info_fd`` gets ``{"child-pid": N}``, the init's host pid; with
    ``block_fd`` the sandbox waits, set up, until that fd is readable (data or closed) before the init starts.

    ``own_userns`` puts the submission, after the uid drop, in a user namespace of its own
    (``unshare --user``): the keyrings it sees die with it, whatever it stored there.

    The workdir is bound as it is; as root it is a size-capped tmpfs by then (:mod:`grader.sandbox.folders.tmpfs`).
    """
    if drop_uid is not None:
        args = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try"]
    else:
        args = [bwrap, "--unshare-all"]
    # --as-pid-1 with an init shell: bwrap's own init would hide the submission's CPU time.
    args += ["--as-pid-1", "--die-with-parent", "--new-session", *_system_binds(), "--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(TMP_SIZE_BYTES), "--tmpfs", "/tmp"]
    made: set[str] = {"/tmp"}
    for path in readable:
        args += _dirs_to(path, made) + ["--ro-bind", str(path), str(path)]
    args += _dirs_to(Path(BOX), made) + ["--bind", str(workdir), BOX]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    if block_fd is not None:
        args += ["--block-fd", str(block_fd)]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args += ["--chdir", BOX, "--"]
    args += INIT_SHIM
    if drop_uid is not None:
        setpriv = tool("setpriv")
        args += [setpriv, f"--reuid={drop_uid}", f"--regid={drop_uid}", "--clear-groups",
                 "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--"]
        if own_userns:
            args += USERNS_ARGV
    return args + list(limiter)


def _dirs_to(path: Path, made: set[str]) -> list[str]:
    args = []
    for parent in _ancestors(path):
        if parent not in made:
            made.add(parent)
            args += ["--perms", "0755", "--dir", parent]
    return args


# The namespace's PID 1: a shell that waits for the submission (so the submission keeps
# normal signal semantics, and its CPU time reaches wait4() through bwrap) and ends with
# its status, 128 + N for signal N. Not the last command, so the shell cannot exec it.
INIT_SHIM = ["/bin/sh", "-c", '"$@"; exit $?', "sh"]


USERNS_ARGV = [shutil.which("unshare") or "unshare", "--user", "--map-current-user", "--"]


def unshare_prefix(unshare: str) -> list[str]:
    """Namespaces by util-linux ``unshare`` (root); the reaper shim inside drops the uid."""
    return [unshare, "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "--ipc", "--uts", "--"]


def _try(argv: list[str]) -> str | None:
    """None when the probe command succeeds, else why it failed (first stderr line)."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, check=False, capture_output=True, timeout=PROBE_TIMEOUT,
                              cwd="/", env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{type(exc).__name__}: {exc}"
    if done.returncode != 0:
        line = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return (line[0] if line else f"exit code {done.returncode}")
    return None


def _probe_bwrap(drop_uid: int | None) -> LayerStatus:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return LayerStatus("bwrap", False, "bwrap (bubblewrap) is not installed")
    if drop_uid is not None and shutil.which("setpriv") is None:
        return LayerStatus("bwrap", False, "setpriv (util-linux) is missing, so the uid cannot be dropped")
    if shutil.which("prlimit") is None:
        return LayerStatus("bwrap", False, "prlimit (util-linux) is missing, so rlimits cannot reach the sandbox")
    with tempfile.TemporaryDirectory(prefix="npuzzle-probe-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        if drop_uid is not None:
            os.chown(work, drop_uid, drop_uid)
        # Writes in the workdir by absolute path, and checks that the network is really gone.
        script = f"echo ok > {BOX}/probe && ! grep -qv -e '^ *lo:' -e '|' /proc/net/dev"
        limiter = [tool("prlimit"), "--core=0:0", "--"]
        why = _try(bwrap_prefix(bwrap, work, [], drop_uid, limiter=limiter)
                   + ["/bin/sh", "-c", script])
        if why is None and not (work / "probe").exists():
            why = "the sandbox could not write its workdir"
    if why is not None:
        hint = ""
        if drop_uid is None and ("namespace" in why or "uid map" in why):
            hint = (" (unprivileged user namespaces look blocked, e.g. by Ubuntu 24.04's AppArmor: "
                    "kernel.apparmor_restrict_unprivileged_userns=1)")
        return LayerStatus("bwrap", False, f"{bwrap} fails: {why}{hint}")
    return LayerStatus("bwrap", True, f"{bwrap}: no network, own PID/mount/IPC/UTS namespaces, read-only system, "
                                      "only the workdir writable (size-capped when root), a 64 MB private /tmp")


def _probe_unshare() -> LayerStatus:
    unshare = shutil.which("unshare")
    if unshare is None:
        return LayerStatus("unshare", False, "util-linux unshare is not installed")
    if os.geteuid() != 0:
        return LayerStatus("unshare", False, "needs root (without root it needs the user namespaces bwrap uses)")
    why = _try(unshare_prefix(unshare) + ["/bin/true"])
    if why is not None:
        return LayerStatus("unshare", False, f"{unshare} fails: {why}")
    return LayerStatus("unshare", True, "no network, own PID/mount namespaces; host files stay visible")


def _probe_subreaper() -> LayerStatus:
    if not sys.platform.startswith("linux"):
        return LayerStatus("subreaper", False, "prctl(PR_SET_CHILD_SUBREAPER) is Linux-only")
    return LayerStatus("subreaper", True, "each run's shim is a child subreaper: orphans are killed and reaped")


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


def _probe_tmpfs(disabled: frozenset[str], as_root: bool, namespace: str | None) -> LayerStatus:
    private_tmp = (f"/tmp a private {TMP_SIZE_BYTES >> 20} MB tmpfs" if namespace == "bwrap" else
                   f"/tmp, /var/tmp and /dev/shm private {TMP_SIZE_BYTES >> 20} MB tmpfs" if namespace == "unshare"
                   else "/tmp the host's (no mount namespace; TMPDIR points into the workdir)")
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
    why = _try([tool("setpriv"), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *USERNS_ARGV, "/bin/true"])
    if why is not None:
        return LayerStatus("userns", False, f"unshare --user fails as uid {uid} ({why}): runs of one uid would share "
                                            "its keyrings")
    return LayerStatus("userns", True, "each run in a user namespace of its own: keyrings die with the run")


def _probe_seccomp(disabled: frozenset[str], namespace: str | None, drop_uid: int | None) -> LayerStatus:
    """The filter for this machine's architecture, and (under bwrap) whether bwrap loads it."""
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
    if namespace == "bwrap":
        fd = seccomp.program_fd(program)
        try:
            with tempfile.TemporaryDirectory(prefix="npuzzle-probe-") as empty:
                done = subprocess.run(bwrap_prefix(tool("bwrap"), Path(empty), [], drop_uid, seccomp_fd=fd)
                                      + ["/bin/true"], stdin=subprocess.DEVNULL, check=False, capture_output=True,
                                      timeout=PROBE_TIMEOUT, cwd="/", env={"PATH": "/usr/bin:/bin"}, pass_fds=(fd,))
            why = None if done.returncode == 0 else done.stderr.decode("utf-8", "replace").strip() or "it failed"
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"{type(exc).__name__}: {exc}"
        finally:
            os.close(fd)
        if why is not None:
            return LayerStatus("seccomp", False, f"bwrap --seccomp fails: {why}")
    return LayerStatus("seccomp", True, "file locks, leases, inotify, io_uring, bpf, perf_event_open, userfaultfd, "
                                        "keyrings, ptrace, mount, unshare/setns and the like refused (EPERM)")


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

    namespace = None
    for name, prober in (("bwrap", lambda: _probe_bwrap(drop_uid)),
                         ("unshare", _probe_unshare)):
        if name in disabled:
            status = LayerStatus(name, False, "disabled by " + DISABLE_ENV)
        elif not sys.platform.startswith("linux"):
            status = LayerStatus(name, False, "Linux only")
        else:
            status = prober()
        statuses.append(status)
        if status.available and namespace is None:
            namespace = name
    sub = _probe_subreaper() if "subreaper" not in disabled else LayerStatus("subreaper", False, "disabled")
    statuses.append(sub)
    cgroup_status, hierarchy = _probe_cgroup(disabled)
    statuses.append(cgroup_status)
    tmpfs_status = _probe_tmpfs(disabled, uid_status.available, namespace)
    statuses.append(tmpfs_status)
    filter_status = _probe_seccomp(disabled, namespace, drop_uid)
    statuses.append(filter_status)
    program = seccomp.program() if filter_status.available else None
    if program is not None and namespace == "bwrap":
        statuses = [LayerStatus(s.name, False, "not needed: the seccomp filter refuses the keyring calls (and the "
                                              "unshare that would make the namespace)") if s.name == "userns" else s
                    for s in statuses]

    notes: list[str] = []
    if namespace != "bwrap":
        bw = next(s for s in statuses if s.name == "bwrap")
        weaker = ("unshare (namespaces, but the host files stay visible)" if namespace == "unshare"
                  else "rlimits, a process group and a reaper shim only (no namespaces)")
        notes.append(f"sandbox: bwrap unavailable ({bw.reason}); using {weaker}")
    if hierarchy is None:
        notes.append(f"sandbox: no cgroups ({cgroup_status.reason})")
    # The filter refuses the keyring calls, which a user namespace per run kept apart; and it
    # refuses unshare, so the step that made one (after bwrap loads the filter) could not run.
    return Plan(namespace, drop_uid, rlimits.available, tuple(statuses), tuple(notes), pool, hierarchy,
                userns and namespace == "bwrap" and program is None, tmpfs_status.available, program)


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

