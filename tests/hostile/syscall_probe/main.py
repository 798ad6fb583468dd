"""Hostile submission: calls what a solver never needs and prints, per call, ``<name> OK`` or the
error name it got. Each call's arguments are chosen so that, were it allowed, it would succeed or
fail with another error than EPERM; so ``EPERM`` means refused by the filter (or, for bpf, perf
and userfaultfd, by the host's own settings, which is why the filter must not depend on them).
"""

import ctypes
import errno
import fcntl
import os
import signal
import struct
import sys

MACHINE = os.uname().machine
NUMBERS = {
    "x86_64": {"io_uring_setup": 425, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250,
               "add_key": 248, "request_key": 249, "ptrace": 101, "unshare": 272, "setns": 308, "mount": 165,
               "inotify_init1": 294, "flock": 73, "cachestat": 451, "process_vm_readv": 310, "clone3": 435},
    "aarch64": {"io_uring_setup": 425, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "keyctl": 219,
                "add_key": 217, "request_key": 218, "ptrace": 117, "unshare": 97, "setns": 268, "mount": 40,
                "inotify_init1": 26, "flock": 32, "cachestat": 451, "process_vm_readv": 270, "clone3": 435},
}[MACHINE]
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUTS = 0x04000000


def raw(name, *args):
    ctypes.set_errno(0)
    result = libc.syscall(NUMBERS[name], *(ctypes.c_long(a) for a in args))
    return "OK" if result >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def call(function):
    try:
        function()
        return "OK"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))


def main():
    signal.signal(signal.SIGIO, signal.SIG_IGN)  # where F_NOTIFY is allowed, /etc's events must not kill it
    lock_file = os.open("/etc/passwd", os.O_RDONLY)
    flock_struct = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 1, 0)
    results = {
        "io_uring_setup": raw("io_uring_setup", 0, 0),        # allowed: EINVAL (no entries)
        "bpf": raw("bpf", 999, 0, 0),                          # allowed: EINVAL
        "perf_event_open": raw("perf_event_open", 0, 0, -1, -1, 0),  # allowed: EFAULT
        "userfaultfd": raw("userfaultfd", 0x7FFFFFFF),         # allowed: EINVAL
        "keyctl": raw("keyctl", 9999),                         # allowed: EOPNOTSUPP
        "add_key": raw("add_key", 0, 0, 0, 0, 0),              # allowed: EFAULT
        "request_key": raw("request_key", 0, 0, 0, 0),         # allowed: EFAULT
        "ptrace": raw("ptrace", 0x7FFF, 0, 0, 0),              # allowed: EIO/ESRCH
        "unshare": raw("unshare", 0),                          # allowed: OK
        "unshare-uts": raw("unshare", CLONE_NEWUTS),           # a namespace of its own
        "setns": raw("setns", -1, 0),                          # allowed: EBADF
        "mount": raw("mount", 0, 0, 0, 0, 0),                  # allowed: EFAULT
        "inotify_init1": raw("inotify_init1", 0),              # allowed: OK
        "cachestat": raw("cachestat", lock_file, 0, 0, 0),     # allowed: EFAULT (or ENOSYS before 6.5)
        "process_vm_readv": raw("process_vm_readv", os.getpid(), 0, 0, 0, 0, 0),  # allowed: OK
        "flock": call(lambda: fcntl.flock(lock_file, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        "F_SETLK": call(lambda: fcntl.fcntl(lock_file, fcntl.F_SETLK, flock_struct)),
        "F_GETLK": call(lambda: fcntl.fcntl(lock_file, fcntl.F_GETLK, flock_struct)),
        "F_OFD_SETLK": call(lambda: fcntl.fcntl(lock_file, 37, flock_struct)),
        "F_OFD_GETLK": call(lambda: fcntl.fcntl(lock_file, 36, flock_struct)),
        "F_SETLEASE": call(lambda: fcntl.fcntl(lock_file, 1024, fcntl.F_RDLCK)),  # allowed: EACCES (not owner)
        "F_NOTIFY": call(lambda: fcntl.fcntl(os.open("/etc", os.O_RDONLY), 1026, 1)),  # allowed: OK
        "preadv2-nowait": call(lambda: os.preadv(lock_file, [bytearray(16)], 0, os.RWF_NOWAIT)),  # allowed: OK
        "clone3": raw("clone3", 0, 0),                         # allowed: EFAULT; refused: ENOSYS
    }
    for name, outcome in results.items():
        print(name, outcome)
    # On stderr too (a case's message shows its tail): the calls that got through, for a whole grading run.
    allowed = sorted(name for name, outcome in results.items() if outcome not in ("EPERM", "ENOSYS"))
    print("allowed:", " ".join(allowed) or "none", file=sys.stderr)
    # What a solver does need still works: a thread, a child process, an ordinary fcntl.
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    print("fork", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
    print("F_GETFL", call(lambda: fcntl.fcntl(lock_file, fcntl.F_GETFL)))
    with open("output.txt", "w", encoding="ascii") as out:
        out.write("0\n")


if __name__ == "__main__":
    sys.exit(main())
