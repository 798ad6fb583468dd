"""A run's workdir on a size-capped tmpfs that the grader (as root) mounts over it for the run.

The run cannot write more than the tmpfs holds, and what it writes is memory, charged to
its slot's cgroup, never the host's disk. The grader mounts the tmpfs itself (a system
call, no extra process), copies the workdir in, and when every process of the run is dead
puts the host copy back and copies over it only the paths the caller reads, within the
tmpfs's size (:mod:`grader.sandbox.folders.copyback`), then unmounts it. A grader killed mid-run leaves the mount in its
temp folder: :mod:`grader.sandbox.sweep` unmounts it with the folder.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox.folders import copyback

MS_NOSUID, MS_NODEV, MS_REMOUNT = 2, 4, 32
MNT_DETACH = 2
_libc = ctypes.CDLL(None, use_errno=True)


def _options(size_bytes: int, inodes: int | None) -> str:
    return f"size={max(size_bytes, 4096)}" + (f",nr_inodes={inodes}" if inodes is not None else "")


def mount_tmpfs(target: Path, size_bytes: int, mode: int = 0o700, inodes: int | None = None) -> None:
    """A tmpfs of ``size_bytes`` (and at most ``inodes`` files and folders, if given) on ``target``."""
    options = f"{_options(size_bytes, inodes)},mode={mode:o}".encode()
    if _libc.mount(b"tmpfs", os.fsencode(target), b"tmpfs", MS_NOSUID | MS_NODEV, options) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"cannot mount a tmpfs on {target}: {os.strerror(error)}")


def resize(target: Path, size_bytes: int, inodes: int | None = None) -> None:
    """Change the caps of the tmpfs on ``target`` in place (a remount: what it holds stays). Refused
    (OSError) below what it holds already."""
    flags = MS_REMOUNT | MS_NOSUID | MS_NODEV
    if _libc.mount(b"tmpfs", os.fsencode(target), b"tmpfs", flags, _options(size_bytes, inodes).encode()) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"cannot resize the tmpfs on {target}: {os.strerror(error)}")


def unmount(target: Path | str) -> None:
    if _libc.umount2(os.fsencode(str(target)), MNT_DETACH) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"cannot unmount {target}: {os.strerror(error)}")


def mounts_under(folder: Path | str) -> list[str]:
    """Mount points inside ``folder``, deepest first (from /proc/self/mountinfo)."""
    prefix = str(folder).rstrip("/") + "/"
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            point = line.split()[4].replace("\\040", " ")
            if point.startswith(prefix) or point == prefix[:-1]:
                found.append(point)
    return sorted(found, key=len, reverse=True)


def _copy_regular(source: str, target: str) -> None:
    """Regular files only: a FIFO or socket a run left would block or fail the copy."""
    if stat.S_ISREG(os.lstat(source).st_mode):
        shutil.copy2(source, target, follow_symlinks=False)


def _copy(source: Path, target: Path) -> None:
    with contextlib.suppress(shutil.Error):  # what could not be copied (special files) stays behind
        shutil.copytree(source, target, symlinks=True, copy_function=_copy_regular, dirs_exist_ok=True)


@dataclass
class CopyBack:
    """What :func:`over` did at the end: ``refused`` says why the kept paths were not copied back."""

    mounted: bool
    refused: str | None = None


@contextlib.contextmanager
def over(workdir: Path, size_bytes: int, keep: Sequence[str] = (".",)) -> Iterator[CopyBack]:
    """Put ``workdir`` on a tmpfs of ``size_bytes`` for the ``with`` body. Afterwards ``workdir`` is
    what it was before, with each of ``keep`` (relative paths, ``.`` for all) as the run left it,
    if they fit in ``size_bytes``. Yields ``mounted=False`` (and changes nothing) where the mount
    is refused, e.g. without CAP_SYS_ADMIN in a container."""
    aside = workdir.with_name(workdir.name + ".host")
    os.rename(workdir, aside)
    os.mkdir(workdir, 0o700)
    try:
        mount_tmpfs(workdir, size_bytes)
    except OSError:
        os.rmdir(workdir)
        os.rename(aside, workdir)
        yield CopyBack(False)
        return
    done = CopyBack(True)
    try:
        _copy(aside, workdir)
        yield done
    finally:
        try:
            done.refused = copyback.copy_back(workdir, aside, keep, size_bytes)
        finally:
            unmount(workdir)
            os.rmdir(workdir)
            os.chmod(aside, 0o700)  # root's and closed, as every workdir is between runs
            os.rename(aside, workdir)
