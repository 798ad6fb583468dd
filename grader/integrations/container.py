"""What the container grants this process: CPUs and memory from its cgroup, and how to size a run to it.

A Gradescope autograder gets ½ CPU and 768 MB by default, while ``os.cpu_count()`` there
reports the host's cores: one parallel run per reported core, each allowed 1 GB, gives
spurious TLE (runs share half a core) and MLE (or the kernel's OOM killer). This module
reads the limits the kernel enforces — the CPU quota (``cpu.max`` in cgroup v2,
``cpu.cfs_quota_us``/``cpu.cfs_period_us`` in v1), the memory limit (``memory.max`` /
``memory.limit_in_bytes``), each the tightest along the cgroup's ancestors — and the CPUs
this process may run on (its affinity), and :func:`size_run` turns them into a number of
parallel runs and a memory limit per run that fit, with one line saying why.

Reading never raises: a file that is missing or unreadable means "no limit known". The two /proc files
are parsed by :mod:`grader.sandbox.cgroups`, which reads them to place the runs' own groups.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import cgroups

UNLIMITED = 1 << 60
"""v1 writes "no limit" as a huge page-rounded number; anything above this is no limit."""
GRADER_RESERVE_MB = 160
"""Memory left to the grader itself (Python, the verifier, the reports) beside the runs."""
MIN_RUN_MB = 64


@dataclass(frozen=True)
class Capacity:
    """The CPUs and memory this process may use, and where each figure came from."""

    cpus: float
    cpu_source: str
    memory_mb: int | None
    memory_source: str


@dataclass(frozen=True)
class Sizing:
    """How many runs go in parallel and how much memory each may use, with the reason in words."""

    jobs: int
    memory_mb: int
    reason: str


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _chain(mount: Path, root: str, path: str) -> list[Path]:
    """The cgroup's folder and its ancestors up to the mount point, as this mount shows them."""
    folder = cgroups.inside(mount, root, path)
    if not folder.is_dir():
        folder = mount  # a cgroup namespace hides the path: the mount's root is ours
    chain = [folder]
    while chain[-1] != mount and mount in chain[-1].parents:
        chain.append(chain[-1].parent)
    return chain


def _cpu_limit(folder: Path, version: str) -> float | None:
    if version == "cgroup2":
        text = _read(folder / "cpu.max")
        if not text or text.split()[0] == "max":
            return None
        quota, _, period = text.partition(" ")
        return int(quota) / int(period or 100000)
    quota_us, period_us = _read(folder / "cpu.cfs_quota_us"), _read(folder / "cpu.cfs_period_us")
    if not quota_us or not period_us or int(quota_us) <= 0 or int(period_us) <= 0:
        return None
    return int(quota_us) / int(period_us)


def _memory_limit(folder: Path, version: str) -> int | None:
    text = _read(folder / ("memory.max" if version == "cgroup2" else "memory.limit_in_bytes"))
    if not text or text == "max" or not text.isdigit() or int(text) >= UNLIMITED:
        return None
    return int(text)


def _tightest(controller: str, mounts: list[tuple[str, Path, str, set[str]]], memberships: dict[str, str],
              reader: Callable[[Path, str], float | int | None]) -> tuple[float | int | None, str]:
    """The smallest limit along the cgroup's ancestors, v1 if the controller is mounted there, else v2."""
    for fstype, mount_point, cgroup_root, options in mounts:
        if fstype == "cgroup" and controller in options and controller in memberships:
            version, mount, root, path = fstype, mount_point, cgroup_root, memberships[controller]
            break
    else:
        unified = [(fstype, mount, root) for fstype, mount, root, _ in mounts if fstype == "cgroup2"]
        if not unified or "" not in memberships:
            return None, ""
        (version, mount, root), path = unified[0], memberships[""]
    limits = []
    for folder in _chain(mount, root, path):
        try:
            value = reader(folder, version)
        except ValueError:
            value = None
        if value is not None:
            limits.append((value, folder))
    if not limits:
        return None, ""
    value, folder = min(limits, key=lambda item: item[0])
    return value, f"cgroup {'v2' if version == 'cgroup2' else 'v1'} {folder}"


def read_capacity(proc: Path = Path("/proc/self")) -> Capacity:
    """This process's CPUs (quota and affinity, the smaller) and memory limit; never raises."""
    mounts = cgroups.mounts(_read(proc / "mountinfo") or "")
    memberships = cgroups.own_paths(_read(proc / "cgroup") or "")
    try:
        affinity = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = os.cpu_count() or 1
    quota, quota_source = _tightest("cpu", mounts, memberships, _cpu_limit)
    if quota is not None and quota < affinity:
        cpus, cpu_source = float(quota), f"the CPU quota of {quota_source}"
    else:
        cpus, cpu_source = float(affinity), "CPUs this process may run on"
    memory, memory_source = _tightest("memory", mounts, memberships, _memory_limit)
    return Capacity(cpus, cpu_source, None if memory is None else int(memory) // (1024 * 1024),
                    f"the memory limit of {memory_source}" if memory is not None else "no memory limit")


def size_run(capacity: Capacity, memory_mb: int, max_jobs: int | None = None) -> Sizing:
    """Parallel runs and the memory per run that fit in ``capacity`` for runs asking ``memory_mb``.

    One run per whole CPU (at least one: half a CPU runs one at a time), no more than the
    memory holds at ``memory_mb`` each beside :data:`GRADER_RESERVE_MB` for the grader. When
    even one run does not fit, the one run gets what there is (so a greedy run ends as MLE
    under the grader's own limit instead of the kernel killing the grader), and ``reason``
    says so.
    """
    jobs = max(1, math.floor(capacity.cpus + 1e-9))
    if max_jobs is not None:
        jobs = max(1, min(jobs, max_jobs))
    per_run = memory_mb
    note = ""
    if capacity.memory_mb is not None:
        usable = capacity.memory_mb - GRADER_RESERVE_MB
        jobs = max(1, min(jobs, usable // memory_mb if usable >= memory_mb else 1))
        if usable < memory_mb:
            per_run = max(MIN_RUN_MB, usable)
            note = (f"; the assignment asks {memory_mb} MB per run but the container has {capacity.memory_mb} MB, "
                    f"so runs get {per_run} MB: raise the container's memory to at least "
                    f"{memory_mb + GRADER_RESERVE_MB} MB to grade with the assignment's limit")
    memory = f"{capacity.memory_mb} MB ({capacity.memory_source})" if capacity.memory_mb is not None \
        else "no memory limit"
    reason = (f"{capacity.cpus:g} CPU ({capacity.cpu_source}), {memory} -> {jobs} parallel "
              f"run{'s' * (jobs != 1)} of {per_run} MB each{note}")
    return Sizing(jobs, per_run, reason)
