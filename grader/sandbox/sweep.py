"""What a killed grader leaves behind, found by its owner's name and removed at the next start.

A grader names its temp folders (copies of every submission, runs' workdirs) and its slot
cgroups after itself: ``<prefix><ns>.<pid>.<start>-...``, its PID namespace, its pid and the
kernel's start time of that pid (so a recycled pid is not mistaken for a live owner, and a
grader never judges an owner in another PID namespace, whose pids it cannot see). ``kill -9`` skips every
``finally``; the next ``grade`` (or ``grade doctor``) calls :func:`sweep`, which removes
only what belongs to an owner that is provably gone and never follows a link.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import cgroups
from grader.sandbox.folders import tmpfs

TEMP_PREFIX = "npuzzle-grade-"
OWNER = re.compile(r"(\d+)\.(\d+)\.(\d+)-")


def start_time(pid: int) -> int | None:
    """The kernel's start time of ``pid`` (clock ticks since boot), None when it is not running."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def pid_namespace() -> int:
    """The inode of this process's PID namespace (0 where there is none to read)."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0


def owner_tag(pid: int | None = None) -> str:
    """``<ns>.<pid>.<start>``: this process (or ``pid``) as an owner name that a later pid cannot match."""
    pid = os.getpid() if pid is None else pid
    return f"{pid_namespace()}.{pid}.{start_time(pid) or 0}"


def owner_alive(name: str, prefix: str) -> bool | None:
    """Whether the owner named in ``name`` runs; None when ``name`` names no owner this process can judge
    (not ours, or made in another PID namespace)."""
    if not name.startswith(prefix):
        return None
    match = OWNER.match(name[len(prefix):])
    if match is None or int(match.group(1)) != pid_namespace():
        return None
    return start_time(int(match.group(2))) == int(match.group(3))


def make_temp_folder(mode: int = 0o711, parent: str | None = None) -> Path:
    """A fresh temp folder owned by this process by name (``npuzzle-grade-<ns>.<pid>.<start>-XXXX``)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{owner_tag()}-", dir=parent))
    folder.chmod(mode)
    return folder


@dataclass
class Swept:
    folders: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def sweep_temp(parent: str | None = None, swept: Swept | None = None) -> Swept:
    """Remove the temp folders of graders that are gone."""
    swept = swept or Swept()
    root = Path(parent or tempfile.gettempdir())
    try:
        entries = list(os.scandir(root))
    except OSError as exc:
        swept.problems.append(f"cannot list {root}: {exc.strerror}")
        return swept
    for entry in entries:
        if owner_alive(entry.name, TEMP_PREFIX) is not False or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.geteuid():
                continue  # another user's folder of the same name: not ours to judge
        except OSError:
            continue  # gone since the listing: another grader's sweep took it
        problems: list[str] = []
        for point in tmpfs.mounts_under(entry.path):  # a killed run's workdir tmpfs
            try:
                tmpfs.unmount(point)
            except OSError as exc:
                problems.append(str(exc))
        # rmtree calls it within this iteration, while ``problems`` is this folder's list
        shutil.rmtree(entry.path, onerror=lambda _f, path, exc: problems.append(f"{path}: {exc[1]}"))  # noqa: B023
        (swept.problems.extend(problems) if problems else swept.folders.append(entry.path))
    return swept


def sweep_cgroups(hierarchy: cgroups.Hierarchy | None, swept: Swept | None = None) -> Swept:
    """Kill what is left in, and remove, the slot cgroups of graders that are gone."""
    swept = swept or Swept()
    if hierarchy is None:
        return swept
    names: set[str] = set()
    for parent in set(hierarchy.parents.values()):
        with contextlib.suppress(OSError):
            names.update(entry.name for entry in os.scandir(parent)
                         if owner_alive(entry.name, cgroups.PREFIX) is False)
    for name in sorted(names):
        group = cgroups.SlotGroup(hierarchy, name)
        group.dirs = {c: p / name for c, p in hierarchy.parents.items() if (p / name).is_dir()}
        try:
            group.remove()
            swept.groups.append(name)
        except OSError as exc:
            swept.problems.append(f"cgroup {name}: {exc}")
    return swept


def sweep(hierarchy: cgroups.Hierarchy | None) -> Swept:
    """Both sweeps; never raises (a leftover is reported in ``problems``, not a reason to stop)."""
    swept = Swept()
    sweep_temp(swept=swept)
    sweep_cgroups(hierarchy, swept)
    return swept
