"""Run one untrusted command under limits and the strongest isolation this machine offers.

:func:`run_command` is the only place the grader starts a submission. Whatever the
layers (see :mod:`grader.sandbox.isolation`), every run gets: an argv list, its workdir as cwd,
stdin from /dev/null (or a file), a minimal environment, its own session, stdout and
stderr captured to unlinked files outside the workdir and read back with a cap, POSIX
rlimits, a wall timeout, and its whole process tree killed and reaped when it ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from grader.sandbox import isolation, rlimits
from grader.sandbox.limits import Limits, Outcome

REAPER = Path(__file__).with_name("reaper.py")
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
REAPER_GRACE_SECONDS = 2.0
BWRAP_GRACE_SECONDS = 0.5
COPY_BACK_SECONDS = 2.0  # for a timed-out run's init to copy its capped workdir back
WORKDIR_ROOM_BYTES = 64 * 1024 * 1024  # what a run may add to its workdir (bwrap as root)
OOM_MARKERS = (b"MemoryError", b"java.lang.OutOfMemoryError", b"std::bad_alloc",
               b"Cannot allocate memory", b"out of memory", b"Out of memory",
               b"insufficient memory for the Java Runtime", b"Could not reserve enough space",
               b"os::commit_memory")


def isolation_layers() -> list[str]:
    """The layers active on this machine (probed once, cached), for results.json."""
    return isolation.plan().layers


def _prepare_workdir(workdir: Path, uid: int | None) -> Path:
    tmp = workdir / ".tmp"
    tmp.mkdir(exist_ok=True)
    if uid is not None:  # the submission runs as nobody: it must own what it may write
        os.chown(workdir, uid, uid)
        for root, dirs, files in os.walk(workdir):
            for name in dirs + files:
                os.lchown(os.path.join(root, name), uid, uid)
    return tmp


def _workdir_quota(workdir: Path, limits: Limits) -> int:
    """The size of the run's capped workdir: its content plus room to write.
    """
    content = 0
    for root, dirs, files in os.walk(workdir):
        for name in dirs + files:
            content += os.lstat(os.path.join(root, name)).st_size + 4096  # tmpfs counts whole pages
    return content + max(WORKDIR_ROOM_BYTES, 2 * limits.file_size_bytes)


def _check_reachable(workdir: Path, uid: int) -> None:
    """Without bwrap's private view, the uid must be able to reach the workdir by its absolute path."""
    for folder in workdir.parents:
        info = folder.stat()
        if not (info.st_mode & 0o001 or (info.st_uid == uid and info.st_mode & 0o100)):
            raise PermissionError(f"{folder} is not searchable by uid {uid}, which runs submissions: "
                                  f"make it chmod o+x (0711 keeps it unlistable) or install bubblewrap")


def _read_capped(handle, cap: int) -> tuple[bytes, bool]:
    handle.seek(0)
    data = handle.read(cap + 1)
    return data[:cap], len(data) > cap


def _wait(pid: int, timeout: float) -> bool:
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


def _killpg(pgid: int) -> None:
    if pgid <= 1:  # never our own group or "every process": the child is always its own leader
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _decode_status(status: int, via_init: bool) -> tuple[int | None, int | None]:
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    # A namespace's init (bwrap's, or the reaper under unshare) cannot re-raise a signal on
    # itself and reports a child killed by signal N as exit code 128 + N, as shells do.
    if via_init and 128 < code < 128 + 65:
        try:
            return None, signal.Signals(code - 128).value
        except ValueError:
            pass
    return code, None


def _install_prefixes(program: str) -> list[Path]:
    """The install folder of an interpreter outside the system dirs (``/opt/x/bin/java`` -> ``/opt/x``).

    bwrap shows the submission only the system dirs, so an absolute ``argv[0]`` such as a
    pyenv or venv Python would not exist inside; its prefix (never the repository) is
    bound read-only.
    """
    if not os.path.isabs(program):
        return []
    found = []
    for path in (Path(program), Path(program).resolve()):
        outside = not any(str(path).startswith(d + "/") for d in isolation.SYSTEM_DIRS)
        if outside and path.parent.name == "bin" and path.parent.parent != Path("/") and path.exists():
            found.append(path.parent.parent)
    return list(dict.fromkeys(found))


def _descendants(root: int) -> tuple[list[int], float]:
    """The pids below ``root`` and the CPU seconds ``root`` and they used so far, from /proc."""
    children: dict[int, list[int]] = {}
    ticks: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # after the command: state ppid ... utime(12) stime(13) cutime(14) cstime(15), 0-based here
        children.setdefault(int(fields[1]), []).append(int(name))
        ticks[int(name)] = sum(int(f) for f in fields[11:15])
    below, total, frontier = [], ticks.get(root, 0), list(children.get(root, []))
    while frontier:
        pid = frontier.pop()
        below.append(pid)
        total += ticks.get(pid, 0)
        frontier += children.get(pid, [])
    return below, total / os.sysconf("SC_CLK_TCK")


def _namespace_init(info_fd: int, bwrap_pid: int) -> int | None:
    """The host pid of bwrap's sandbox init, if bwrap reported it and it is still bwrap's child."""
    try:
        info = json.loads(os.read(info_fd, 65536) or b"{}")
        pid = int(info["child-pid"])
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            ppid = next(line.split()[1] for line in status if line.startswith("PPid:"))
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return None
    return pid if int(ppid) == bwrap_pid else None


def _command(argv: Sequence[str], workdir: Path, readable: Sequence[Path], plan: isolation.Plan,
             limits: Limits, info_fd: int | None) -> list[str]:
    """The full argv: the isolation prefix, then the submission's own argv.

    The rlimits go to the submission alone, set by ``prlimit`` or the reaper shim, so
    bwrap, the init and the copies in and out of a capped workdir are not bound by them.
    """
    values = rlimits.within_ours(rlimits.rlimit_values(limits, plan.drop_uid is not None, argv)) if plan.rlimits else []
    if plan.namespace == "bwrap":
        paths = [Path(p).resolve() for p in readable]
        paths += [p for p in _install_prefixes(argv[0]) if not any(p.is_relative_to(r) for r in [workdir, *paths])]
        quota = _workdir_quota(workdir, limits) if plan.drop_uid is not None else None
        return isolation.bwrap_prefix(isolation.tool("bwrap"), workdir, paths, plan.drop_uid, info_fd, quota,
                                    rlimits.prlimit_argv(values) if values else []) + list(argv)
    uid = str(plan.drop_uid) if plan.drop_uid is not None else "-"
    encoded = ",".join(f"{res}:{soft}:{hard}" for res, soft, hard in values) or "-"
    reaper = [sys.executable, "-I", "-S", str(REAPER), uid, encoded, "--"]
    if plan.namespace == "unshare":  # the reaper is the namespace's init: it cannot die of our kill
        return isolation.unshare_prefix(isolation.tool("unshare")) + reaper + list(argv)
    return reaper + list(argv)


def run_command(argv: Sequence[str], workdir: Path, limits: Limits, *, env: Mapping[str, str] | None = None,
                stdin_data: bytes | None = None, readable: Sequence[Path] = ()) -> Outcome:
    """Run ``argv`` in ``workdir`` under ``limits``; a student's fault is in the Outcome, never raised.

    Raises OSError only for a grader fault (workdir missing, no temp space).
    """
    if not argv:
        raise ValueError("run_command needs a command")
    plan = isolation.plan()
    workdir = Path(workdir).resolve()
    if plan.namespace != "bwrap" and plan.drop_uid is not None:
        _check_reachable(workdir, plan.drop_uid)
    tmpdir = _prepare_workdir(workdir, plan.drop_uid)
    environment = {"PATH": SYSTEM_PATH, "HOME": str(workdir), "LANG": "C.UTF-8", "TMPDIR": str(tmpdir)}
    environment.update(env or {})
    cpu_limit = rlimits.cpu_limit(limits) if plan.rlimits else None

    with tempfile.TemporaryFile(prefix="npuzzle-out-") as out, \
            tempfile.TemporaryFile(prefix="npuzzle-err-") as err, \
            tempfile.TemporaryFile(prefix="npuzzle-in-") as stdin_file:
        if stdin_data is not None:
            stdin_file.write(stdin_data)
            stdin_file.flush()
            stdin_file.seek(0)
        info_read, info_write = os.pipe() if plan.namespace == "bwrap" else (None, None)
        command = _command(argv, workdir, readable, plan, limits, info_write)
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                command, cwd=workdir, env=environment, close_fds=True,
                pass_fds=(info_write,) if info_write is not None else (),
                stdin=stdin_file if stdin_data is not None else subprocess.DEVNULL,
                stdout=out, stderr=err, start_new_session=True)
        except OSError as exc:  # the student's program cannot be started: a run-time error
            if info_read is not None:
                os.close(info_read)
            err.write(f"cannot run {argv[0]}: {exc.strerror or exc}\n".encode())
            return _outcome(127, None, False, 0.0, 0.0, out, err, limits)
        finally:
            if info_write is not None:
                os.close(info_write)
        sampled_cpu = 0.0
        try:
            timed_out = _wait(proc.pid, limits.wall_seconds)
            if timed_out and plan.namespace is None:
                # Let the reaper shim kill and reap the daemons that left the group first.
                os.kill(proc.pid, signal.SIGTERM)
                _wait(proc.pid, REAPER_GRACE_SECONDS)
        finally:
            if info_read is not None:
                os.set_blocking(info_read, False)
                init = _namespace_init(info_read, proc.pid)
                os.close(info_read)
                if init is not None:
                    if timed_out:
                        # Kill the submission, not the init, so the init copies a capped workdir
                        # back (what it wrote so far is part of the verdict); sample the CPU time
                        # first, as processes the kernel reaps with the namespace lose theirs.
                        below, sampled_cpu = _descendants(init)
                        for pid in below:
                            with contextlib.suppress(OSError):
                                os.kill(pid, signal.SIGKILL)
                        _wait(proc.pid, COPY_BACK_SECONDS)
                    with contextlib.suppress(OSError):  # its death ends the namespace and all in it
                        os.kill(init, signal.SIGKILL)
                    _wait(proc.pid, BWRAP_GRACE_SECONDS)
            # Kill the group before reaping its leader, so the pgid cannot have been reused.
            _killpg(proc.pid)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = status  # reaped here; keep Popen from waiting again
        wall = time.monotonic() - started
        exit_code, sig = _decode_status(status, via_init=plan.namespace is not None)
        cpu = max(usage.ru_utime + usage.ru_stime, sampled_cpu)
        if sig == signal.SIGXCPU:
            timed_out = True
        elif sig == signal.SIGKILL and cpu_limit is not None and cpu >= 0.9 * cpu_limit:
            # The hard CPU limit, for a program that caught SIGXCPU. rusage reads low under
            # contention (up to ~20% here), hence the margin of a whole second below hard.
            timed_out = True
        return _outcome(exit_code, sig, timed_out, wall, cpu, out, err, limits)


def _outcome(exit_code, sig, timed_out, wall, cpu, out, err, limits: Limits) -> Outcome:
    stdout, stdout_cut = _read_capped(out, limits.output_bytes)
    stderr, stderr_cut = _read_capped(err, limits.output_bytes)
    if sig == getattr(signal, "SIGXFSZ", None):
        stdout_cut = stdout_cut or len(stdout) >= limits.output_bytes
    failed = exit_code != 0 or sig is not None
    memory = failed and not timed_out and any(marker in stderr for marker in OOM_MARKERS)
    return Outcome(exit_code=exit_code, signal=sig, timed_out=timed_out, memory_exceeded=memory,
                   wall_seconds=round(wall, 4), cpu_seconds=round(cpu, 4), stdout=stdout, stderr=stderr,
                   stdout_truncated=stdout_cut, stderr_truncated=stderr_cut)
