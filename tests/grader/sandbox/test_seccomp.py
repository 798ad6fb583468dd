"""The seccomp program, run by a small classic-BPF interpreter here: which calls it refuses, per
architecture, without starting anything (the hostile tests run it in the kernel)."""

from __future__ import annotations

import errno
import struct

import pytest

from grader.sandbox import seccomp

ALLOW, EPERM, ENOSYS, KILL = "allow", "EPERM", "ENOSYS", "kill"


def verdict(program: bytes, arch: int, nr: int, args: tuple[int, ...] = ()) -> str:
    """What ``program`` answers for one call: seccomp_data is nr, arch, ip, then six 64-bit args."""
    data = struct.pack("=IIQ6Q", nr, arch, 0, *(list(args) + [0] * (6 - len(args))))
    rows = [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = rows[pc]
        if code == seccomp.LD_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
            pc += 1
        elif code in (seccomp.JEQ, seccomp.JSET, seccomp.JGE):
            hit = {seccomp.JEQ: acc == k, seccomp.JSET: bool(acc & k), seccomp.JGE: acc >= k}[code]
            pc += 1 + (jt if hit else jf)
        else:
            assert code == seccomp.RET
            return {seccomp.RET_ALLOW: ALLOW, seccomp.RET_KILL_PROCESS: KILL, seccomp.RET_ERRNO | errno.EPERM: EPERM,
                    seccomp.RET_ERRNO | errno.ENOSYS: ENOSYS}[k]


X86, ARM = seccomp.ARCHES["x86_64"], seccomp.ARCHES["aarch64"]
F_GETFL, F_SETFL, F_GETLK, F_SETLK, F_SETLKW, F_OFD_SETLK, F_DUPFD_CLOEXEC = 3, 4, 5, 6, 7, 37, 1030
CLONE_THREAD_FLAGS, CLONE_NEWUSER, CLONE_NEWNET = 0x3D0F00, 0x10000000, 0x40000000
CASES = [  # (arch, call, args, answer)
    (X86, "read", 0, (), ALLOW), (X86, "openat", 257, (), ALLOW), (X86, "mmap", 9, (), ALLOW),
    (X86, "flock", 73, (), EPERM), (ARM, "flock", 32, (), EPERM),
    (X86, "fcntl F_GETFL", 72, (3, F_GETFL), ALLOW), (X86, "fcntl F_SETFL", 72, (3, F_SETFL), ALLOW),
    (X86, "fcntl F_DUPFD_CLOEXEC", 72, (3, F_DUPFD_CLOEXEC), ALLOW),
    (X86, "fcntl F_GETLK", 72, (3, F_GETLK), EPERM), (X86, "fcntl F_SETLKW", 72, (3, F_SETLKW), EPERM),
    (ARM, "fcntl F_SETLK", 25, (3, F_SETLK), EPERM), (ARM, "fcntl F_OFD_SETLK", 25, (3, F_OFD_SETLK), EPERM),
    # The kernel reads fcntl's cmd as 32 bits: high bits set by the caller cannot slip a lock past.
    (X86, "fcntl F_SETLK, high bits", 72, (3, (1 << 40) | F_SETLK), EPERM),
    (X86, "io_uring_setup", 425, (), EPERM), (ARM, "io_uring_enter", 426, (), EPERM), (X86, "bpf", 321, (), EPERM),
    (ARM, "bpf", 280, (), EPERM), (X86, "perf_event_open", 298, (), EPERM), (X86, "userfaultfd", 323, (), EPERM),
    (X86, "keyctl", 250, (), EPERM), (ARM, "add_key", 217, (), EPERM), (X86, "ptrace", 101, (), EPERM),
    (X86, "mount", 165, (), EPERM), (ARM, "umount2", 39, (), EPERM), (X86, "unshare", 272, (), EPERM),
    (X86, "setns", 308, (), EPERM), (X86, "init_module", 175, (), EPERM), (X86, "kexec_load", 246, (), EPERM),
    (X86, "clone for a thread", 56, (CLONE_THREAD_FLAGS,), ALLOW), (X86, "clone for fork", 56, (17,), ALLOW),
    (X86, "clone with CLONE_NEWUSER", 56, (CLONE_NEWUSER | 17,), EPERM),
    (ARM, "clone with CLONE_NEWNET", 220, (CLONE_NEWNET,), EPERM), (X86, "clone3", 435, (), ENOSYS),
    (X86, "preadv2", 327, (3, 0, 1, 0, 0, 0), ALLOW), (X86, "preadv2 RWF_NOWAIT", 327, (3, 0, 1, 0, 0, 8), EPERM),
    (X86, "an x32 call", 0x40000000 | 72, (), EPERM),
]


@pytest.mark.parametrize("arch, name, nr, args, answer", CASES, ids=[f"{a.audit:x}-{c[1]}" for a, *c in CASES])
def test_the_filter_answers(arch, name, nr, args, answer):
    machine = "x86_64" if arch is X86 else "aarch64"
    assert verdict(seccomp.program(machine), arch.audit, nr, args) == answer


@pytest.mark.parametrize("machine, other", [("x86_64", 0x40000003), ("aarch64", 0x40000028)])  # i386, arm32
def test_a_call_from_another_abi_kills(machine, other):
    assert verdict(seccomp.program(machine), other, 0) == KILL


def test_every_refused_name_has_a_number_on_each_architecture():
    for machine, arch in seccomp.ARCHES.items():
        missing = [n for n in seccomp.REFUSED if n not in arch.numbers and n != "inotify_init"]  # no arm64 inotify_init
        assert missing == [], machine
        assert len(set(arch.numbers.values())) == len(arch.numbers), f"{machine}: two names share a number"


def test_an_unknown_architecture_has_no_filter():
    assert seccomp.program("riscv64") is None
