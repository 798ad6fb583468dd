"""Per-run shim used when no bwrap is available:
``python reaper.py [--seccomp HEX] [--private-tmp BYTES] UID LIMITS -- ARGV...``.

It makes itself a child subreaper (Linux), so everything the submission forks, even a
daemon that called ``setsid``, is re-parented to it instead of escaping to init; it runs
the submission (as ``UID`` unless ``-``, under ``LIMITS``: ``resource:soft:hard,...`` or
``-``; set in the child, as this process is single-threaded), waits for it, then kills and reaps every
descendant left. It ends the way the submission ended (same exit code, or the same signal
re-raised), so the runner reads one status. With ``--seccomp`` the submission starts under that
system-call filter (:mod:`grader.sandbox.seccomp`), loaded after the uid drop, just before
its exec. It runs with ``python -I -S`` and imports
nothing from the project, to keep start-up cheap and the environment out of reach.

With ``--private-tmp BYTES`` (given only under ``unshare``, where this shim is root in a
private mount namespace) it first mounts a fresh tmpfs of that size on each of ``/tmp``,
``/var/tmp`` and ``/dev/shm``: what the run writes there is memory charged to its cgroup and
gone with the namespace, never the host's disk or a file another run can read. Each
``--keep PATH`` (the workdir, the run's readable paths) that lies under one of them is bound
back at its own path first, so the grader's own temp folders stay where the run expects them.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
import time
from types import FrameType
from typing import NoReturn

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219, "ppc64le": 280, "s390x": 280}
KEYCTL_CLEAR, KEYCTL_GET_PERSISTENT = 7, 22
KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING = -2, -4, -5
MS_NOSUID, MS_NODEV, MS_BIND, MS_REC = 2, 4, 4096, 16384
PRIVATE_TMP_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
# grader.sandbox.limits' SHIM_EXIT, SHIM_FAULT and TOKEN_ENV (this script imports nothing of the project;
# a test checks they agree). The token is popped from the environment at start: the submission never has it.
SHIM_EXIT = 125
SHIM_FAULT = "grader sandbox: [{token}] "
TOKEN_ENV = "NPUZZLE_SHIM_TOKEN"


def _prctl(option: int, value: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the runner's process-group kill remains
        pass


def _children() -> list[int]:
    me = str(os.getpid())
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if fields[1].decode() == me:  # fields: state, ppid, ...
            found.append(int(name))
    return found


def _kill_and_reap_all() -> None:
    while True:
        children = _children()
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        try:  # zombies re-parented here since the scan, or children forked during it
            while os.waitpid(-1, os.WNOHANG)[0] != 0:
                pass
        except ChildProcessError:
            return  # no child left at all
        if not children:  # alive but not found (no /proc): do not spin
            time.sleep(0.01)


def _clear_keyrings() -> None:
    """Empty the uid's user, user-session and persistent keyrings (as that uid, before the run):
    whatever a former run of this uid stored there is gone before this one starts."""
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is None:
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return
    for ring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING):
        libc.syscall(number, KEYCTL_CLEAR, ctypes.c_long(ring))
    persistent = libc.syscall(number, KEYCTL_GET_PERSISTENT, ctypes.c_long(-1), ctypes.c_long(KEY_SPEC_PROCESS_KEYRING))
    if persistent > 0:
        libc.syscall(number, KEYCTL_CLEAR, ctypes.c_long(persistent))


def _mount(libc: ctypes.CDLL, source: bytes, target: bytes, kind: bytes | None, flags: int,
           options: bytes | None) -> None:
    if libc.mount(source, target, kind, flags, options) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"cannot mount {source.decode(errors='replace')} on "
                             f"{target.decode(errors='replace')}: {os.strerror(error)}")


def _mount_private_tmp(size_bytes: int, keep: list[str]) -> None:
    """A fresh size-capped tmpfs on each shared temp folder of this mount namespace, with the
    ``keep`` paths under it bound back in place.

    A failure is fatal: the run must not silently get the host's /tmp when it was promised its own.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    for folder in PRIVATE_TMP_DIRS:
        if not os.path.isdir(folder):
            continue
        inside = [path for path in keep if path.startswith(folder.rstrip("/") + "/")]
        # Opened before the tmpfs hides them; bound back through /proc/self/fd afterwards.
        handles = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW)) for path in inside
                   if os.path.isdir(path)]
        try:
            _mount(libc, b"tmpfs", folder.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                   f"size={size_bytes},mode=1777".encode())
            for path, handle in handles:
                os.makedirs(path, mode=0o711, exist_ok=True)
                _mount(libc, f"/proc/self/fd/{handle}".encode(), path.encode(), None, MS_BIND | MS_REC, None)
        finally:
            for _, handle in handles:
                os.close(handle)


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def _load_filter(program: bytes) -> None:
    """Load the runner's seccomp program (8-byte sock_filter rows) on this process, for good."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(_Program(len(program) // 8, program)), 0, 0):
        error = ctypes.get_errno()
        raise OSError(error, f"cannot load the seccomp filter: {os.strerror(error)}")


def _become(uid: str) -> None:
    os.setgroups([])
    os.setgid(int(uid))
    os.setuid(int(uid))


def _scrub_keyrings_after(uid: str) -> None:
    """Clear the uid's keyrings again once the run is over, so nothing of it stays on the host."""
    try:
        pid = os.fork()
    except OSError:
        return
    if pid == 0:
        try:
            _become(uid)
            _clear_keyrings()
        finally:
            os._exit(0)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


class _Stop(Exception):
    pass


def _stop(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: a second one must not break the clean-up
    raise _Stop


def _exec_child(uid: str, limits: list[tuple[int, ...]], program: bytes | None, command: list[str],
                token: str) -> NoReturn:
    """In the forked child: its own group, the limits, the uid, no new privileges, the filter, then the command."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setpgid(0, 0)  # its own group, so the timeout can kill it apart from this shim
        for res, soft, hard in limits:
            resource.setrlimit(res, (soft, hard))
        if uid != "-":
            _become(uid)
            _clear_keyrings()
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        if program is not None:
            try:
                _load_filter(program)
            except OSError as exc:  # a grader fault, which the runner raises
                print(f"{SHIM_FAULT.format(token=token)}{exc.strerror}", file=sys.stderr)
                os._exit(SHIM_EXIT)
        os.execvp(command[0], command)
    except (OSError, ValueError) as exc:
        print(f"cannot run {command[0]}: {exc}", file=sys.stderr)
    except BaseException:  # a _Stop before exec: never run the shim's code in the child
        pass
    os._exit(127)


def main(argv: list[str]) -> int:
    token = os.environ.pop(TOKEN_ENV, "")  # unset here, so no process this shim starts inherits it
    private_tmp, keep, program = None, [], None
    if argv[:1] == ["--seccomp"] and len(argv) > 1:
        program, argv = bytes.fromhex(argv[1]), argv[2:]
    if argv[:1] == ["--private-tmp"] and len(argv) > 1 and argv[1].isdigit():
        private_tmp, argv = int(argv[1]), argv[2:]
        while argv[:1] == ["--keep"] and len(argv) > 1:
            keep.append(argv[1])
            argv = argv[2:]
    if len(argv) < 4 or argv[2] != "--":
        print("usage: reaper.py [--seccomp HEX] [--private-tmp BYTES [--keep PATH]...] UID|- LIMITS|- -- ARGV...",
              file=sys.stderr)
        return 2
    uid, command = argv[0], argv[3:]
    if private_tmp is not None:
        try:
            _mount_private_tmp(private_tmp, keep)
            os.chdir(os.getcwd())  # the workdir as bound back, not the hidden original
        except OSError as exc:
            print(f"{SHIM_FAULT.format(token=token)}{exc.strerror}", file=sys.stderr)
            return SHIM_EXIT
    limits = [tuple(int(n) for n in item.split(":")) for item in argv[1].split(",")] if argv[1] != "-" else []
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, _stop)  # the runner's timeout: clean up, then die
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the same if the grader itself dies
    child = os.fork()
    if child == 0:
        _exec_child(uid, limits, program, command, token)
    try:
        while True:
            pid, status = os.wait()
            if pid == child:
                break
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the child is done: a late timeout changes nothing
    except _Stop:
        status = signal.SIGKILL  # a wait status meaning "killed by SIGKILL"
        try:
            os.killpg(child, signal.SIGKILL)
        except OSError:
            pass
    _kill_and_reap_all()
    if uid != "-":
        _scrub_keyrings_after(uid)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)  # ignored when this shim is a namespace's init (under unshare)
        return 128 + sig
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
