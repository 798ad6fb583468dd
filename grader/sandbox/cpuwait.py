"""How long a run waited for a CPU it could not get: the run-queue delay of its threads.

A run's wall clock keeps going while the machine is too busy to give it a CPU. That time is
the machine's, not the program's: the wall cap (which stops programs that sleep or wait for
input) must not count it, or a busy grading host turns a slow-but-correct run into a TLE.

The kernel keeps, per thread, the time it spent runnable but waiting on a run queue
(``/proc/TID/schedstat``, second field, ns; CONFIG_SCHED_INFO). :class:`WaitMeter` samples it
for every thread of a run at each check of the runner's watch (the slot cgroup's thread list,
or without cgroups the process tree under the run's first process) and keeps the last value
seen of a thread that has since exited, so only a dead thread's delay since the last sample
(at most one check interval each) goes uncounted: the cap is then a little less generous,
never more. Every thread of a run is born for it, so each is counted from its first instant.
Per interval, the delay counted is at most the interval itself: with several threads waiting
at once, "the run was waiting for a CPU" is true once, not once per thread.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable, Iterable


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether this kernel reports run-queue delay (``/proc/self/schedstat`` readable with three fields)."""
    try:
        with open("/proc/self/schedstat", "rb") as stat:
            return len(stat.read().split()) >= 3
    except OSError:
        return False


def _delay_ns(tid: int) -> int | None:
    try:
        with open(f"/proc/{tid}/schedstat", "rb") as stat:
            return int(stat.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None


class TreeThreads:
    """The threads of ``root`` and the processes below it, for runs without a cgroup. Finding the processes
    reads every /proc/PID/stat, so it is done at most every ``rescan`` seconds; between scans the known
    processes' threads are listed again. A process found late loses nothing (its delay counts from its
    birth); only one that lived and died between two scans goes uncounted."""

    def __init__(self, root: int, rescan: float = 1.0) -> None:
        self.root, self.rescan = root, rescan
        self._pids: list[int] = []
        self._scanned = -rescan

    def __call__(self) -> list[int]:
        now = time.monotonic()
        if now - self._scanned >= self.rescan:
            self._pids, self._scanned = tree_pids(self.root), now
        found = []
        for pid in self._pids:
            with contextlib.suppress(OSError):
                found += [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
        return found


def tree_pids(root: int) -> list[int]:
    """``root`` and every process below it, from /proc."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    ppid = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(name))
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        found.append(pid)
        frontier += children.get(pid, [])
    return found


class WaitMeter:
    """The run-queue delay of a run's threads, sampled; ``threads`` lists them (tids) at each sample."""

    def __init__(self, threads: Callable[[], Iterable[int]]) -> None:
        self._threads = threads
        self._seen: dict[int, int] = {}
        self._last_total = 0
        self.waited = 0.0

    def sample(self, interval: float) -> float:
        """Read every thread's delay; add what the run waited since the last sample (at most ``interval``
        seconds) to :attr:`waited`, and return it."""
        for tid in self._threads():
            delay = _delay_ns(tid)
            if delay is not None:
                self._seen[tid] = delay
        total = sum(self._seen.values())
        step = min(max(0.0, (total - self._last_total) / 1e9), max(0.0, interval))
        self._last_total = total
        self.waited += step
        return step
