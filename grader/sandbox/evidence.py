"""What a run's end proves: whether it was stopped by its CPU limit or ran out of memory, from what the grader
measured (the cgroup, the rusage of what it reaped), never from what the program printed alone."""

from __future__ import annotations

import resource
import signal

from grader.sandbox import cgroups
from grader.sandbox.limits import Limits

# What a program prints when an allocation fails under its rlimit. Printed text is only a claim
# (a student can print it): it is believed when the grader's own measurement agrees, see
# out_of_memory. Not "Could not reserve enough space" (the JVM failing to start with its heap):
# the caller confirms that one itself (grader.sandbox.probe.jvm_probe) before calling it the grader's fault.
OOM_MARKERS = (b"MemoryError", b"java.lang.OutOfMemoryError", b"std::bad_alloc",
               b"Cannot allocate memory", b"out of memory", b"Out of memory",
               b"insufficient memory for the Java Runtime", b"os::commit_memory")
# A failed allocation under RLIMIT_AS (or a JVM's -Xmx) comes after the process's resident memory
# grew toward its limit: Python's MemoryError at a 256 MB limit holds ~230 MB, a JVM's heap
# OutOfMemoryError at least its -Xmx. Half the limit leaves room for what the address space
# counts beyond resident pages (libraries, a JVM's reserved but untouched heap).
OOM_EVIDENCE_FRACTION = 0.5
# ru_maxrss is the largest process of the run's whole tree, the sandbox's own Python shim included
# (17 MB measured here): under this it proves nothing, whatever the limit (memory_mb may be 16).
OOM_EVIDENCE_FLOOR_BYTES = 32 * 2**20


def over_cpu(sig: int | None, cpu_exceeded: bool, cpu: float, cpu_limit: float) -> bool:
    """Whether a run that ended by ``sig`` was stopped by its CPU limit."""
    if sig == signal.SIGXCPU or cpu_exceeded:
        return True
    # The hard CPU limit, for a program that caught SIGXCPU. rusage reads low under
    # contention (up to ~20% here), hence the margin of a whole second below hard.
    return sig == signal.SIGKILL and cpu >= 0.9 * cpu_limit


def held_bytes(spent: cgroups.Usage | None, reaped_maxrss_kb: int) -> int | None:
    """The most memory the run held, or None when the grader cannot tell it apart from its own.

    The run's own cgroup peak where the kernel keeps one. Else the rusage peak of the processes it
    reaped; but exec keeps a forked parent's high-water mark, so that figure is never below the
    grader's own peak, and is the run's only when it is above it."""
    if spent is not None and spent.run_peak_bytes is not None:
        return spent.run_peak_bytes
    own_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return reaped_maxrss_kb * 1024 if reaped_maxrss_kb > own_kb else None


def out_of_memory(limits: Limits, failed: bool, stderr: bytes, oom_killed: bool,
                  largest_rss_bytes: int | None) -> tuple[bool, str]:
    """Whether a run ran out of memory, from what the grader measured; and a note for its message.

    The kernel's OOM kill in the run's cgroup is proof. A failed run that printed an out-of-memory
    message is believed only when the run (its cgroup's own peak, else its largest process's
    ``ru_maxrss`` when that is the run's: :func:`held_bytes`) held at least
    :data:`OOM_EVIDENCE_FRACTION` of the limit (and more than the sandbox's own processes hold,
    :data:`OOM_EVIDENCE_FLOOR_BYTES`); otherwise it stays the run's own
    failure (RTE), and the note says why it is not MLE."""
    if oom_killed:
        return True, ""
    if not failed or not any(marker in stderr for marker in OOM_MARKERS):
        return False, ""
    limit = limits.memory_mb * 2**20
    if largest_rss_bytes is None:
        return False, ("the program said it ran out of memory, but it was not stopped at its memory limit and its "
                       "peak could not be measured apart from the grader's own: not a memory limit verdict")
    if largest_rss_bytes >= max(OOM_EVIDENCE_FRACTION * limit, OOM_EVIDENCE_FLOOR_BYTES):
        return True, ""
    return False, (f"the program said it ran out of memory, but it held at most {largest_rss_bytes / 2**20:.0f} MB "
                   f"of its {limits.memory_mb} MB limit and was not stopped at it (an allocation larger than the "
                   "limit is refused at once, before any of it is used): not a memory limit verdict")
