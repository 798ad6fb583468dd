"""Worker slots: what one run holds while it runs, a per-run uid and its slot's cgroups.

A grader process makes one slot per run it has going at once (``-j N``: N slots) and reuses
them; the uid of each run is leased from the machine-wide pool (:mod:`grader.sandbox.uids`)
for that run alone. When a run ends its slot is emptied (every process in its cgroups
killed) before another run gets it, and in the modes without private namespaces the uid is
scrubbed of the IPC objects and temp files it left.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from grader.sandbox import cgroups, isolation, sweep, uids

_NUMBERS = itertools.count()  # slot names stay unique across the pools of one process


@dataclass
class Slot:
    """What one run holds: ``uid`` (None: the grader's own) and ``group`` (None: no cgroups here)."""

    uid: int | None
    group: cgroups.SlotGroup | None


class SlotPool:
    """Hands out slots; ``hierarchy`` None means no cgroups, ``pool`` None means no per-run uids."""

    def __init__(self, hierarchy: cgroups.Hierarchy | None, pool: uids.UidPool | None,
                 private_namespaces: bool) -> None:
        self.hierarchy, self.pool, self.private = hierarchy, pool, private_namespaces
        self._free: list[cgroups.SlotGroup] = []
        self._made: list[cgroups.SlotGroup] = []
        self._lock = threading.Lock()
        self._owner = os.getpid()
        if pool is not None:
            pool.prepare()
        atexit.register(self.close)

    def _group(self) -> cgroups.SlotGroup | None:
        if self.hierarchy is None:
            return None
        with self._lock:
            if self._free:
                return self._free.pop()
            name = f"{cgroups.PREFIX}{sweep.owner_tag()}-{next(_NUMBERS)}"
            group = cgroups.SlotGroup(self.hierarchy, name)
            self._made.append(group)
        return group.create()

    @contextlib.contextmanager
    def slot(self) -> Iterator[Slot]:
        group = self._group()
        lease = None
        try:
            lease = self.pool.acquire() if self.pool is not None else None
            yield Slot(lease.uid if lease else None, group)
        finally:
            try:
                if group is not None:
                    group.kill_all()
                if lease is not None and not self.private:
                    uids.scrub_ipc(lease.uid)
                    uids.scrub_files(lease.uid)
            finally:
                if lease is not None:
                    lease.release()
                if group is not None:
                    with self._lock:
                        self._free.append(group)

    def close(self) -> None:
        """Remove this process's slot groups (at exit; the sweep removes a killed grader's)."""
        if os.getpid() != self._owner:  # a forked child inherits the atexit hook, not the groups
            return
        with self._lock:
            made, self._made, self._free = self._made, [], []
        for group in made:
            with contextlib.suppress(OSError):
                group.remove()


_SWEPT: list[sweep.Swept] = []
_MAKING = threading.Lock()


@functools.cache
def _cached_pool(disabled: frozenset[str]) -> SlotPool:
    chosen = isolation.plan()
    if not _SWEPT:  # once per process: what graders killed before us left behind
        _SWEPT.append(sweep.sweep(chosen.cgroups))
    return SlotPool(chosen.cgroups, chosen.uid_pool, private_namespaces=chosen.backend.private_view)


def pool() -> SlotPool:
    """The worker slots for runs under the current layers (made, and the startup sweep run, on first use)."""
    with _MAKING:
        return _cached_pool(isolation.disabled_from_env())


def last_sweep() -> sweep.Swept | None:
    """What the startup sweep removed (None before the first run)."""
    return _SWEPT[0] if _SWEPT else None
