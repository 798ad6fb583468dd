"""A run's workdir on the host: given to the run's uid for the run alone, and taken back after.

Where no bwrap hides the host, permissions are all that keep one run out of another's
files and out of the grader's: the grader's temp folders are root's (0711: passable, not
listable), every workdir is root's and 0700 except while its own run runs (then it is the
run's uid's, and that uid is no other run's, see :mod:`grader.sandbox.uids`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from grader.sandbox.limits import Limits

WORKDIR_ROOM_BYTES = 64 * 1024 * 1024  # what a run may add to its workdir (bwrap as root)
TMP_NAME = ".tmp"  # the run's TMPDIR, inside its workdir


def entries(workdir: Path) -> Iterator[str]:
    """Every path below ``workdir`` (never through a link)."""
    for root, dirs, files in os.walk(workdir):  # never follows a link into another folder
        for name in dirs + files:
            yield os.path.join(root, name)


def give(workdir: Path, uid: int | None) -> Path:
    """Make the run's ``.tmp`` and hand the workdir's whole content to ``uid`` (None: leave it)."""
    tmp = workdir / TMP_NAME
    tmp.mkdir(exist_ok=True)
    if uid is not None:  # the submission runs as ``uid``: it must own what it may write
        os.chown(workdir, uid, uid)
        os.chmod(workdir, 0o700)
        for path in entries(workdir):
            os.lchown(path, uid, uid)
    return tmp


def take_back(workdir: Path, uid: int | None) -> None:
    """Give everything in the workdir back to the grader (root), so the uid's next run finds nothing."""
    if uid is None:
        return
    me = os.geteuid()
    try:
        os.chown(workdir, me, me)
        os.chmod(workdir, 0o700)
    except OSError:  # gone already (the caller removed it) or not ours to change
        return
    for path in entries(workdir):
        try:
            os.lchown(path, me, me)
        except OSError:
            pass


def quota_bytes(workdir: Path, limits: Limits) -> int:
    """The size of the run's capped workdir: its content plus room to write."""
    return tally(workdir, limits)[1]


def tally(workdir: Path, limits: Limits) -> tuple[int, int]:
    """The workdir's entries (files and folders), and :func:`quota_bytes`, in one walk."""
    count = content = 0
    for path in entries(workdir):
        count += 1
        content += os.lstat(path).st_size + 4096  # tmpfs counts whole pages
    return count, content + max(WORKDIR_ROOM_BYTES, 2 * limits.file_size_bytes)


def check_reachable(workdir: Path, uid: int) -> None:
    """Without bwrap's private view, the uid must be able to reach the workdir by its absolute path."""
    for folder in workdir.parents:
        info = folder.stat()
        if not (info.st_mode & 0o001 or (info.st_uid == uid and info.st_mode & 0o100)):
            raise PermissionError(f"{folder} is not searchable by uid {uid}, which runs submissions: "
                                  f"make it chmod o+x (0711 keeps it unlistable) or install bubblewrap")


def readable_by_others(path: Path) -> str | None:
    """Why an arbitrary other uid could read ``path`` (every parent passable, the file or folder
    readable by others), or None when permissions alone keep it out."""
    path = Path(path).resolve()
    try:
        for folder in reversed(path.parents):
            if not os.stat(folder).st_mode & 0o001:
                return None
        mode = os.stat(path).st_mode
    except OSError:
        return None
    # A folder others may pass through gives away every file in it whose name they can guess.
    if mode & (0o005 if os.path.isdir(path) else 0o004):
        return f"{path} is open to every user (mode {mode & 0o777:04o})"
    return None
