"""The POSIX resource limits of a run, and how they reach the submission alone.

Under bwrap the compiled init sets them in the submission's process (:mod:`grader.sandbox.entry.boxinit`), or
without it the runner sets them on the sandbox's first process while bwrap holds it
(:mod:`grader.sandbox.entry.admission`): bwrap itself and the copies of a capped workdir are not bound by
them. Without bwrap, the reaper shim sets them in the submission's own process.
"""

from __future__ import annotations

import math
import re
import resource
from collections.abc import Sequence

from grader.sandbox.backends.base import tool
from grader.sandbox.limits import Limits

# Per uid, so only set when submissions run as a dedicated one (root's uid drop).
NPROC_LIMIT = 1024
JVM_THREADS_ALLOWED = 24                # thread stacks the JVM's data limit leaves room for
JVM_NATIVE_BYTES = 256 * 1024 * 1024    # metaspace, code cache, GC tables, libraries


def cpu_limit(limits: Limits) -> int:
    """RLIMIT_CPU's soft value: the CPU limit (the wall limit when unset), whole seconds up."""
    cpu = limits.cpu_seconds if limits.cpu_seconds is not None else limits.wall_seconds
    return max(1, math.ceil(cpu))


def jvm_data_bytes(memory_mb: int, argv: Sequence[str] = ()) -> int:
    """RLIMIT_DATA for a JVM whose heap is capped by ``-Xmx{memory_mb}m``.

    The data limit counts every writable mapping, so it must leave room beyond the heap:
    each Java thread's whole ``-Xss`` stack (the JVM starts about ten threads; a 1 GB
    heap with ``-Xss64m`` under a 1.5 GB data limit died at 830 MB of heap), metaspace,
    the code cache. Measured here: OpenJDK 17, ``-Xmx256m -Xss64m`` cannot start under
    384 MB; with this allowance the heap, not the data limit, runs out first.
    """
    stack = 1024 * 1024
    for arg in argv:
        match = re.fullmatch(r"-Xss(\d+)([kKmMgG]?)", arg)
        if match:
            stack = int(match.group(1)) * {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[match.group(2).lower()]
    return memory_mb * 2**20 + JVM_THREADS_ALLOWED * stack + JVM_NATIVE_BYTES


def rlimit_values(limits: Limits, dedicated_uid: bool, argv: Sequence[str] = ()) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) for a run: SIGXCPU at the CPU limit, SIGKILL a second later."""
    cpu_soft = cpu_limit(limits)
    memory = jvm_data_bytes(limits.memory_mb, argv) if limits.jvm else limits.memory_mb * 1024 * 1024
    # stdout/stderr are files too: let them exceed the cap by a byte so truncation shows.
    fsize = max(limits.file_size_bytes, limits.output_bytes + 1)
    values = [(resource.RLIMIT_CPU, cpu_soft, cpu_soft + 1),
              (resource.RLIMIT_FSIZE, fsize, fsize),
              (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
              (resource.RLIMIT_CORE, 0, 0)]
    # The JVM reserves far more address space than it uses and cannot start under RLIMIT_AS;
    # its heap is capped by the caller's -Xmx, the rest by the data limit (jvm_data_bytes).
    values.append((resource.RLIMIT_DATA if limits.jvm else resource.RLIMIT_AS, memory, memory))
    if dedicated_uid and hasattr(resource, "RLIMIT_NPROC"):
        values.append((resource.RLIMIT_NPROC, NPROC_LIMIT, NPROC_LIMIT))
    return values


PRLIMIT_NAMES = {resource.RLIMIT_CPU: "cpu", resource.RLIMIT_FSIZE: "fsize", resource.RLIMIT_NOFILE: "nofile",
                 resource.RLIMIT_CORE: "core", resource.RLIMIT_AS: "as", resource.RLIMIT_DATA: "data",
                 getattr(resource, "RLIMIT_NPROC", -1): "nproc"}


def within_ours(values: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The limits, lowered to the grader's own hard limits (which an unprivileged run cannot raise)."""
    clamped = []
    for res, soft, hard in values:
        ours = resource.getrlimit(res)[1]
        if ours == resource.RLIM_INFINITY:
            clamped.append((res, soft, hard))
        else:
            clamped.append((res, min(soft, ours), min(hard, ours)))
    return clamped


def prlimit_argv(values: Sequence[tuple[int, int, int]]) -> list[str]:
    """``prlimit`` applying ``values`` to what follows it on a command line (bwrap's probe)."""
    return [tool("prlimit"), *(f"--{PRLIMIT_NAMES[res]}={soft}:{hard}" for res, soft, hard in values), "--"]
