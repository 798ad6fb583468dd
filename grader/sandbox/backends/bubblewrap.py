"""The bubblewrap backend: no network, its own PID, mount, IPC and UTS namespaces, a read-only view of
the system directories, a fresh size-capped ``/tmp``, and only the run's folder writable, bound at
:data:`BOX`. Nothing else of the host is mounted: the repository, the answers, the manifest and other
submissions' folders do not exist inside. A shell is PID 1 of the namespace: when the submission ends,
it exits, and the kernel kills every process the submission left behind.
"""

from __future__ import annotations

import functools
import os
import re
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from grader.sandbox import cgroups, rlimits, seccomp
from grader.sandbox.backends.base import (
    PROBE_ENV,
    PROBE_TIMEOUT,
    SYSTEM_DIRS,
    TMP_SIZE_BYTES,
    Backend,
    LayerStatus,
    Wrapping,
    install_prefixes,
    tool,
    try_command,
)

# Where bwrap binds a run's folder: one fixed, neutral path, so nothing a run reads (cwd, HOME,
# TMPDIR, argv, /proc/self/mountinfo) names its case or its student.
BOX = "/run/box"
# The namespace's PID 1: a shell that waits for the submission (so the submission keeps
# normal signal semantics, and its CPU time reaches wait4() through bwrap) and ends with
# its status, 128 + N for signal N. Not the last command, so the shell cannot exec it.
INIT_SHIM = ["/bin/sh", "-c", '"$@"; exit $?', "sh"]
USERNS_ARGV = [shutil.which("unshare") or "unshare", "--user", "--map-current-user", "--"]
INIT_INSIDE = "/run/init"  # where the compiled init (grader.sandbox.entry.boxinit) is bound, read-only
_UNLIMITED = 2**64 - 1  # RLIM_INFINITY as the init reads it


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


def init_arguments(joins: Sequence[int], values: Sequence[tuple[int, int, int]], uid: int | None) -> list[str]:
    """The compiled init's argv before the program's (``grader/sandbox/entry/boxinit.c``): the slot's join fds, the
    rlimits ``(resource, soft, hard)``, the uid to drop to."""
    args = [f"-j{fd}" for fd in joins]
    for res, soft, hard in values:
        args.append(f"-r{res}:{_unsigned(soft)}:{_unsigned(hard)}")
    if uid is not None:
        args.append(f"-u{uid}")
    return [*args, "--"]


def _unsigned(value: int) -> int:
    return _UNLIMITED if value == resource.RLIM_INFINITY or value < 0 else value


def _ancestors(path: Path) -> list[str]:
    """Dirs bwrap would create 0700 on the way to ``path``, which nobody could then traverse."""
    outside = [str(p) for p in reversed(path.parents) if str(p) != "/"]
    return [p for p in outside if not any(p == d or p.startswith(d + "/") for d in SYSTEM_DIRS)]


def _dirs_to(path: Path, made: set[str]) -> list[str]:
    args = []
    for parent in _ancestors(path):
        if parent not in made:
            made.add(parent)
            args += ["--perms", "0755", "--dir", parent]
    return args


def prefix(bwrap: str, workdir: Path, readable: list[Path], drop_uid: int | None,
           info_fd: int | None = None, limiter: Sequence[str] = (), own_userns: bool = False,
           seccomp_fd: int | None = None, block_fd: int | None = None,
           init: tuple[Path, Sequence[str]] | None = None) -> list[str]:
    """The argv before the submission's: bwrap, the namespace's init shell, the uid drop,
    then ``limiter`` (e.g. ``prlimit ... --``, so only what follows gets the rlimits; a run's
    rlimits are set while ``block_fd`` holds the sandbox instead, :mod:`grader.sandbox.entry.admission`).

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

    ``init`` (the compiled init's host path and its arguments, :mod:`grader.sandbox.entry.boxinit`) replaces the
    init shell and ``setpriv``: bound read-only at ``/run/init``, it is the namespace's PID 1, joins the slot,
    sets the rlimits and drops the uid itself (``drop_uid`` and ``limiter`` are then in its arguments).
    """
    if drop_uid is not None:
        args = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try"]
    else:
        args = [bwrap, "--unshare-all"]
    # --as-pid-1 with an init shell: bwrap's own init would hide the submission's CPU time.
    args += ["--as-pid-1", "--die-with-parent", *_view(workdir, readable, init[0] if init is not None else None)]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    if block_fd is not None:
        args += ["--block-fd", str(block_fd)]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args += ["--chdir", BOX, "--"]
    if init is not None:
        return args + [INIT_INSIDE, *init[1]] + (USERNS_ARGV if own_userns else [])
    args += INIT_SHIM
    if drop_uid is not None:
        setpriv = tool("setpriv")
        args += [setpriv, f"--reuid={drop_uid}", f"--regid={drop_uid}", "--clear-groups",
                 "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--"]
        if own_userns:
            args += USERNS_ARGV
    return args + list(limiter)


def _view(workdir: Path, readable: list[Path], init: Path | None) -> list[str]:
    """What a run sees: the system read-only, its own /proc, /dev and /tmp, ``readable``, the box, the init."""
    args = ["--new-session", *_system_binds(), "--proc", "/proc", "--dev", "/dev",
            "--perms", "1777", "--size", str(TMP_SIZE_BYTES), "--tmpfs", "/tmp"]
    made: set[str] = {"/tmp"}
    for path in readable:
        args += _dirs_to(path, made) + ["--ro-bind", str(path), str(path)]
    args += _dirs_to(Path(BOX), made) + ["--bind", str(workdir), BOX]
    if init is not None:
        args += ["--ro-bind", str(init), INIT_INSIDE]
    return args


def bound_paths(program: str, readable: Sequence[Path], workdir: Path) -> list[Path]:
    """What a run of ``program`` may read beside the system: ``readable`` and the program's install folder."""
    paths = [Path(p).resolve() for p in readable]
    return paths + [p for p in install_prefixes(program) if not any(p.is_relative_to(r) for r in [workdir, *paths])]


def resident_prefix(bwrap: str, box: Path, readable: list[Path], init: Path) -> list[str]:
    """bwrap's argv for a resident sandbox (:mod:`grader.sandbox.entry.resident`), up to its init: the view of
    :func:`prefix` as root, with the box at :data:`BOX`; the init then clones each run's own PID, mount,
    network, IPC and UTS namespaces, ``/proc`` and ``/tmp``. No ``--die-with-parent`` (it
    follows the thread that started bwrap): the init ends when the grader's end of its socket closes."""
    return [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--as-pid-1", *_view(box, readable, init), "--chdir", BOX, "--"]


class Bubblewrap(Backend):
    name = "bwrap"
    layers = ("bwrap", "no-network", "pid-namespace", "mount-namespace", "read-only-system", "private-tmp")
    namespaces = True
    private_view = True
    held = True
    userns = True
    tmp_view = f"/tmp a private {TMP_SIZE_BYTES >> 20} MB tmpfs"
    as_fallback = "bwrap (namespaces and a private view of the host)"

    def inside(self, workdir: Path) -> str:
        return BOX  # a fixed path that names no case and no student

    def neutral(self, values: Sequence[str], workdir: Path) -> list[str]:
        host = re.compile(re.escape(str(workdir)) + r"(?=/|:|$)")
        return [host.sub(BOX, value) for value in values]

    def wrap(self, argv: Sequence[str], run: Wrapping) -> list[str]:
        """With ``run.init``, the compiled init joins the slot (``run.join_fds``), limits and drops the run;
        held (``run.block_fd``), the runner admits the run; else a sh joins the slot and prlimit limits it."""
        paths = bound_paths(argv[0], run.readable, run.workdir)
        if run.init is not None:
            init = (run.init, init_arguments(run.join_fds, run.rlimits, run.uid))
            return prefix(tool("bwrap"), run.workdir, paths, run.uid, run.info_fd, own_userns=run.userns,
                          seccomp_fd=run.seccomp_fd, init=init) + list(argv)
        held = run.block_fd is not None
        join = cgroups.join_argv(run.group, run.token) if run.group is not None and not held else []
        limiter = rlimits.prlimit_argv(run.rlimits) if run.rlimits and not held else []
        return join + prefix(tool("bwrap"), run.workdir, paths, run.uid, run.info_fd, limiter,
                             own_userns=run.userns, seccomp_fd=run.seccomp_fd, block_fd=run.block_fd) + list(argv)

    def probe(self, drop_uid: int | None) -> LayerStatus:
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
            why = try_command(prefix(bwrap, work, [], drop_uid, limiter=limiter) + ["/bin/sh", "-c", script])
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

    def probe_filter(self, program: bytes, drop_uid: int | None) -> str | None:
        """Whether bwrap loads the filter (``--seccomp FD``)."""
        fd = seccomp.program_fd(program)
        try:
            with tempfile.TemporaryDirectory(prefix="npuzzle-probe-") as empty:
                done = subprocess.run(prefix(tool("bwrap"), Path(empty), [], drop_uid, seccomp_fd=fd) + ["/bin/true"],
                                      stdin=subprocess.DEVNULL, check=False, capture_output=True,
                                      timeout=PROBE_TIMEOUT, cwd="/", env=PROBE_ENV, pass_fds=(fd,))
            why = None if done.returncode == 0 else done.stderr.decode("utf-8", "replace").strip() or "it failed"
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"{type(exc).__name__}: {exc}"
        finally:
            os.close(fd)
        return None if why is None else f"bwrap --seccomp fails: {why}"
