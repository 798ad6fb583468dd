"""The system-call filter every run starts under: a classic-BPF seccomp program, built here.

Two kinds of call are refused (``EPERM``, so a program sees an ordinary error, not a kill):

- **Channels between concurrent runs.** Every sandbox sees the same read-only host inodes
  (``/etc``, ``/usr``...), and kernel state attached to an inode crosses mount, PID and user
  namespaces: file locks (``flock``; ``fcntl`` ``F_GETLK``/``F_SETLK``/``F_SETLKW`` and their
  ``F_OFD_*`` forms), leases and directory notifications (``F_SETLEASE``/``F_GETLEASE``/
  ``F_NOTIFY``), inotify and fanotify (another run's reads show as events), and the page-cache
  probes ``cachestat`` and ``preadv2(RWF_NOWAIT)``. Seccomp cannot see which file an fd names,
  so locks are refused on every file, the run's own included: a solver never needs one, and
  neither the JVM (its ``hsperfdata`` file is not locked, checked by the tests) nor CPython
  takes one to start.
- **Kernel surface a solver never needs:** io_uring, bpf, perf_event_open, userfaultfd, the
  keyring calls, ptrace and its relatives, mount and the new mount API, unshare, setns,
  pivot_root, chroot, clone with a namespace flag, module and kexec loading, syslog, quotactl,
  open_by_handle_at. ``clone3`` gets ``ENOSYS`` instead, as its flags are out of the filter's
  sight: the C library then falls back to ``clone``, whose flags the filter checks.

A call from another ABI than the native one (i386 on x86-64, arm32 on arm64) kills the
process; x32 calls on x86-64 get ``EPERM``. Only x86-64 and arm64 are known: elsewhere
:func:`program` returns None and the sandbox says the layer is missing.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

# struct sock_filter {u16 code; u8 jt; u8 jf; u32 k;}, classic BPF
LD_ABS, JEQ, JSET, JGE, RET = 0x20, 0x15, 0x45, 0x35, 0x06
RET_ALLOW, RET_ERRNO, RET_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
OFFSET_NR, OFFSET_ARCH = 0, 4


def _arg(index: int) -> int:
    """The offset of the low 32 bits of argument ``index`` in struct seccomp_data (little-endian)."""
    return 16 + 8 * index


X32_BIT = 0x40000000
NAMESPACE_FLAGS = 0x80 | 0x20000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
RWF_NOWAIT = 0x08
# F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY
FCNTL_REFUSED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)

# Refused outright, by name: the numbers differ per architecture (below).
REFUSED = ("flock", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark",
           "cachestat", "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "perf_event_open",
           "userfaultfd", "keyctl", "add_key", "request_key", "ptrace", "process_vm_readv", "process_vm_writev",
           "pidfd_getfd", "process_madvise", "kcmp", "mount", "umount2", "unshare", "setns", "pivot_root", "chroot",
           "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "kexec_load",
           "kexec_file_load", "init_module", "finit_module", "delete_module", "syslog", "quotactl", "quotactl_fd",
           "open_by_handle_at", "lookup_dcookie", "acct", "swapon", "swapoff", "reboot")


class Arch:
    def __init__(self, audit: int, numbers: dict[str, int], x32: bool) -> None:
        self.audit, self.numbers, self.x32 = audit, numbers, x32


_COMMON = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
           "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "clone3": 435,
           "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443, "cachestat": 451}
# From the kernel's asm/unistd_64.h (x86-64) and asm-generic/unistd.h (arm64).
ARCHES = {
    "x86_64": Arch(0xC000003E, {**_COMMON, "clone": 56, "fcntl": 72, "flock": 73, "ptrace": 101, "syslog": 103,
                                "pivot_root": 155, "chroot": 161, "acct": 163, "mount": 165, "umount2": 166,
                                "swapon": 167, "swapoff": 168, "reboot": 169, "init_module": 175,
                                "delete_module": 176, "quotactl": 179, "lookup_dcookie": 212, "kexec_load": 246,
                                "add_key": 248, "request_key": 249, "keyctl": 250, "inotify_init": 253,
                                "inotify_add_watch": 254, "unshare": 272, "inotify_init1": 294,
                                "perf_event_open": 298, "fanotify_init": 300, "fanotify_mark": 301,
                                "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310,
                                "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
                                "bpf": 321, "userfaultfd": 323, "preadv2": 327, "pwritev2": 328}, x32=True),
    "aarch64": Arch(0xC00000B7, {**_COMMON, "lookup_dcookie": 18, "fcntl": 25, "inotify_init1": 26,
                                 "inotify_add_watch": 27, "flock": 32, "umount2": 39, "mount": 40, "pivot_root": 41,
                                 "chroot": 51, "quotactl": 60, "acct": 89, "unshare": 97, "kexec_load": 104,
                                 "init_module": 105, "delete_module": 106, "syslog": 116, "ptrace": 117,
                                 "reboot": 142, "add_key": 217, "request_key": 218, "keyctl": 219, "clone": 220,
                                 "swapon": 224, "swapoff": 225, "perf_event_open": 241, "fanotify_init": 262,
                                 "fanotify_mark": 263, "open_by_handle_at": 265, "setns": 268,
                                 "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "finit_module": 273,
                                 "bpf": 280, "userfaultfd": 282, "preadv2": 286, "pwritev2": 287,
                                 "kexec_file_load": 294}, x32=False),
}


def arch(machine: str | None = None) -> Arch | None:
    return ARCHES.get(machine or platform.machine())


def _assemble(code: list[tuple]) -> bytes:
    """``(op, k, true_label, false_label)`` rows and ``"label"`` strings -> packed sock_filter.

    A jump names a label (or None: the next instruction); labels only ever lie ahead."""
    places: dict[str, int] = {}
    index = 0
    for row in code:
        if isinstance(row, str):
            places[row] = index
        else:
            index += 1
    out, index = [], 0
    for row in code:
        if isinstance(row, str):
            continue
        op, k, true, false = (*row, None, None)[:4]
        jt, jf = (0 if label is None else places[label] - index - 1 for label in (true, false))
        assert 0 <= jt < 256 and 0 <= jf < 256, "a seccomp jump out of reach"
        out.append(struct.pack("=HBBI", op, jt, jf, k))
        index += 1
    return b"".join(out)


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one) as bwrap's ``--seccomp`` reads it, or None."""
    target = arch(machine)
    if target is None:
        return None
    nr = target.numbers
    code: list = [(LD_ABS, OFFSET_ARCH), (JEQ, target.audit, "native"), (RET, RET_KILL_PROCESS), "native",
                  (LD_ABS, OFFSET_NR)]
    if target.x32:
        code.append((JGE, X32_BIT, "deny"))
    code += [(JEQ, nr[name], "deny") for name in REFUSED if name in nr]
    code += [(JEQ, nr["clone3"], "enosys"), (JEQ, nr["fcntl"], "fcntl"), (JEQ, nr["clone"], "clone"),
             (JEQ, nr["preadv2"], "rwf"), (JEQ, nr["pwritev2"], "rwf"), (RET, RET_ALLOW)]
    code += ["fcntl", (LD_ABS, _arg(1))] + [(JEQ, cmd, "deny") for cmd in FCNTL_REFUSED] + [(RET, RET_ALLOW)]
    code += ["clone", (LD_ABS, _arg(0)), (JSET, NAMESPACE_FLAGS, "deny"), (RET, RET_ALLOW)]
    code += ["rwf", (LD_ABS, _arg(5)), (JSET, RWF_NOWAIT, "deny"), (RET, RET_ALLOW)]
    code += ["deny", (RET, RET_ERRNO | errno.EPERM), "enosys", (RET, RET_ERRNO | errno.ENOSYS)]
    return _assemble(code)


def program_fd(filter_bytes: bytes) -> int:
    """A fresh fd holding ``filter_bytes`` at offset 0, for one run's bwrap (it reads to the end)."""
    fd = os.memfd_create("npuzzle-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, filter_bytes)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
