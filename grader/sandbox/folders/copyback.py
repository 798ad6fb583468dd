"""What comes back from a run's capped tmpfs to the host disk: only the paths the grader reads,
within a byte budget, never more than the run itself held.

The run is over when this runs, but everything in its folder is the submission's: every step
goes through file descriptors opened without following a link, so no path the run left can
lead the grader's copy elsewhere. Costs are charged *before* the host disk is written:

- a regular file costs its data, not its size: holes are found with ``SEEK_DATA``/``SEEK_HOLE``
  and stay holes, so a sparse file costs the host what it cost the tmpfs;
- a hard link to a file already copied is made again as a hard link (no data);
- a symbolic link is made again as a link (never followed), costing its target's length;
- every entry (file, folder, link) costs :data:`ENTRY_BYTES`, what a file costs a disk at least;
- FIFOs, sockets and devices stay behind.

If the paths would cost more than the budget, none of them is kept, and :func:`copy_back` says
so: the caller then reads a missing answer or build, which is the run's own fault.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

ENTRY_BYTES = 4096
CHUNK_BYTES = 1 << 20
OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class _OverBudget(Exception):
    pass


class _Copier:
    def __init__(self, budget: int) -> None:
        self.left = budget
        self.copied: dict[tuple[int, int], str] = {}  # (dev, inode) of a source file -> its copy's host path

    def charge(self, nbytes: int) -> None:
        self.left -= nbytes
        if self.left < 0:
            raise _OverBudget

    def entry(self, src_dir: int, name: str, dst_dir: int, dst_path: str) -> None:
        info = os.stat(name, dir_fd=src_dir, follow_symlinks=False)
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode)):
            return
        self.charge(ENTRY_BYTES)
        if stat.S_ISLNK(info.st_mode):
            target = os.readlink(name, dir_fd=src_dir)
            self.charge(len(os.fsencode(target)))
            os.symlink(target, name, dir_fd=dst_dir)
        elif stat.S_ISDIR(info.st_mode):
            os.mkdir(name, 0o700, dir_fd=dst_dir)
            self.folder(src_dir, name, dst_dir, dst_path)
        elif info.st_nlink > 1 and (info.st_dev, info.st_ino) in self.copied:
            os.link(self.copied[(info.st_dev, info.st_ino)], name, dst_dir_fd=dst_dir, follow_symlinks=False)
        else:
            self.file(src_dir, name, dst_dir, info)
            self.copied[(info.st_dev, info.st_ino)] = os.path.join(dst_path, name)

    def folder(self, src_dir: int, name: str, dst_dir: int, dst_path: str) -> None:
        source = os.open(name, OPEN_DIR, dir_fd=src_dir)
        try:
            target = os.open(name, OPEN_DIR, dir_fd=dst_dir)
            try:
                for child in sorted(os.listdir(source)):
                    self.entry(source, child, target, os.path.join(dst_path, name))
            finally:
                os.close(target)
        finally:
            os.close(source)

    def file(self, src_dir: int, name: str, dst_dir: int, info: os.stat_result) -> None:
        source = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=src_dir)
        try:
            target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                             stat.S_IMODE(info.st_mode) & 0o755, dir_fd=dst_dir)
            try:
                for start, end in _data_runs(source, info.st_size):
                    self.charge(-(-(end - start) // 4096) * 4096)  # whole pages, as the tmpfs counted them
                    _copy_range(source, target, start, end)
                os.ftruncate(target, info.st_size)  # the holes at the end stay holes
            finally:
                os.close(target)
        finally:
            os.close(source)


def _data_runs(fd: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of data in the file; holes are skipped."""
    position = 0
    while position < size:
        try:
            start = os.lseek(fd, position, os.SEEK_DATA)
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # only a hole is left
                return
            raise
        end = min(os.lseek(fd, start, os.SEEK_HOLE), size)
        yield start, end
        position = end


def _copy_range(source: int, target: int, start: int, end: int) -> None:
    while start < end:
        data = os.pread(source, min(CHUNK_BYTES, end - start), start)
        if not data:  # the file shrank: nothing the run does now can change it, but never loop
            return
        os.pwrite(target, data, start)
        start += len(data)


def _clean(relative: str) -> PurePosixPath | None:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts:
        return None
    return path


def _remove(root: Path, path: PurePosixPath) -> None:
    where = root / path
    if where.is_dir() and not where.is_symlink():
        shutil.rmtree(where)
    elif os.path.lexists(where):
        where.unlink()


def _open_parent(root: int, path: PurePosixPath) -> int | None:
    """An fd on ``path``'s parent under ``root``, reached without following a link; None if absent."""
    fd = os.dup(root)
    for part in path.parts[:-1]:
        try:
            inner = os.open(part, OPEN_DIR, dir_fd=fd)
        except OSError:
            os.close(fd)
            return None
        os.close(fd)
        fd = inner
    return fd


def copy_back(source: Path, target: Path, keep: Sequence[str], budget: int) -> str | None:
    """Copy each of ``keep`` (paths relative to ``source``; ``.`` is all of it) from ``source`` to
    ``target``, replacing what ``target`` had there. Returns None, or why nothing was kept (then
    none of ``keep`` is left in ``target``)."""
    paths = [p for p in map(_clean, keep) if p is not None]
    if any(p == PurePosixPath(".") for p in paths):  # all: what the run deleted goes too
        paths = [PurePosixPath(name) for name in sorted(set(os.listdir(source)) | set(os.listdir(target)))]
    for path in paths:  # first, so that a refusal leaves none of them, the grader's or the run's
        _remove(target, path)
    copier, made = _Copier(budget), []
    root = os.open(source, OPEN_DIR)
    try:
        for path in paths:
            parent = _open_parent(root, path)
            if parent is None:
                continue
            try:
                with contextlib.suppress(FileNotFoundError):
                    os.stat(path.name, dir_fd=parent, follow_symlinks=False)
                    (target / path).parent.mkdir(parents=True, exist_ok=True)
                    made.append(path)
                    destination = os.open(target / path.parent, OPEN_DIR)
                    try:
                        copier.entry(parent, path.name, destination, str(target / path.parent))
                    finally:
                        os.close(destination)
            finally:
                os.close(parent)
    except _OverBudget:
        for path in made:
            _remove(target, path)
        names = ", ".join(str(p) for p in paths[:5]) + (", ..." if len(paths) > 5 else "")
        return (f"the run left more than {budget} bytes in what the grader reads back ({names}; holes, links "
                f"and each file counted as the disk they take), so none of it was kept")
    finally:
        os.close(root)
    return None
