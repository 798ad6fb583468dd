"""Copies, reads and writes that never follow a link a submission controls.

Everything in a submission's folder, and everything a build or a run leaves in its
folder, is the student's: any entry may be a symlink to a host file, a FIFO that blocks
its reader for ever, or a device. The grader runs as root, so one followed link reads or
overwrites any file on the machine. Every copy into, out of or around a submission's
folders goes through this module, which works on directory file descriptors:

- every entry below a root is opened with ``O_NOFOLLOW`` (a folder also ``O_DIRECTORY``),
  relative to its parent's descriptor, and its type is checked with ``fstat`` on that
  descriptor, so it cannot be swapped for a link between the check and the use;
- a symlink is refused (:class:`LinkRefused`, naming it and where it points): a link is
  never needed to build or run a Java or Python program, and a copied link would have to
  be handled safely by every later step, the student's own run included; a FIFO, socket
  or device is refused the same way (:class:`SpecialFileRefused`);
- every file the grader writes is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` in a
  folder the grader created (or reached by the same no-follow walk);
- copies are capped in files, bytes and folder depth, and stop at a deadline.

The root folder a caller passes is the caller's choice and is followed (a TA may link
``submissions/alice`` to a clone); nothing below it is.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from grader.intake.timecap import COPY_SECONDS, StudentFault, check_deadline

MAX_FILES = 5_000
MAX_BYTES = 50_000_000
MAX_DEPTH = 64
CHUNK = 1 << 20

_NOFOLLOW = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW

Skip = Callable[[PurePosixPath, bool], bool]
"""``skip(relative_path, is_folder)``: True leaves the entry (and what is inside) out of a copy."""


class SubmissionFileError(StudentFault):
    """An entry of a submission (or of what its build or run left) that the grader will not touch."""

    def __init__(self, path: PurePosixPath | str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = str(path), problem


class LinkRefused(SubmissionFileError):
    """A symbolic link where the grader expected a file or folder."""


class SpecialFileRefused(SubmissionFileError):
    """A FIFO, socket or device node."""


class TooLarge(SubmissionFileError):
    """More files, bytes or folder depth than a submission may have."""


@dataclass(frozen=True)
class CopyStats:
    files: int
    folders: int
    bytes: int


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "not a regular file or folder"


def _refuse_link(name: str, dir_fd: int, rel: PurePosixPath) -> LinkRefused:
    try:
        target = os.readlink(name, dir_fd=dir_fd)
    except OSError:
        target = "?"
    return LinkRefused(rel, f"is a symbolic link (to {target!r}); submissions may not contain links: hand in "
                            "the file itself")


def link_left_out(rel: PurePosixPath | str, target: str | None) -> str:
    """The note for a link left out of a copy (or a zip), naming it and where it points."""
    to = f" to {target!r}" if target is not None else ""
    return f"{rel}: left out, a symbolic link{to} (links are never followed: hand in the file itself)"


def _link_target(name: str, dir_fd: int) -> str | None:
    try:
        return os.readlink(name, dir_fd=dir_fd)
    except OSError:
        return None


def _open_entry(name: str, dir_fd: int, rel: PurePosixPath) -> tuple[int, os.stat_result]:
    """Open one entry without following it; its fd and fstat. Links and special files are refused."""
    try:
        info = os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        raise SubmissionFileError(rel, "vanished while it was being copied") from None
    if stat.S_ISLNK(info.st_mode):
        raise _refuse_link(name, dir_fd, rel)
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        # Never opened: opening a device may act on it, and a FIFO blocks without O_NONBLOCK.
        raise SpecialFileRefused(rel, f"is {_kind(info.st_mode)}; hand in regular files only")
    flags = _DIR_FLAGS if stat.S_ISDIR(info.st_mode) else _READ_FLAGS
    try:
        fd = os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # swapped for a link after the lstat
            raise _refuse_link(name, dir_fd, rel) from None
        if exc.errno == errno.ENOTDIR:
            raise SubmissionFileError(rel, "changed while it was being copied") from None
        raise
    opened = os.fstat(fd)
    if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino) or \
            stat.S_IFMT(opened.st_mode) != stat.S_IFMT(info.st_mode):
        os.close(fd)
        raise SubmissionFileError(rel, "changed while it was being copied")
    return fd, opened


def _open_root(folder: Path, create: bool) -> int:
    if create:
        os.mkdir(folder, 0o755)
    return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))


def _copy_data(src_fd: int, dst_fd: int, budget: int, rel: PurePosixPath, deadline: float | None,
               step: str, seconds: float) -> int:
    """Copy an open file's bytes; the file may grow under us, so what is read is counted, not st_size."""
    copied = 0
    while True:
        check_deadline(deadline, step, seconds)
        chunk = os.read(src_fd, CHUNK)
        if not chunk:
            return copied
        copied += len(chunk)
        if copied > budget:
            raise TooLarge(rel, f"takes the submission past {MAX_BYTES:,} bytes; hand in source files only")
        view = memoryview(chunk)
        while view:
            view = view[os.write(dst_fd, view):]


def copy_tree(source: Path, target: Path, *, skip: Skip | None = None, into_existing: bool = False,
              max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES, deadline: float | None = None,
              step: str = "copying the submission", seconds: float = COPY_SECONDS,
              left_out: list[str] | None = None) -> CopyStats:
    """Copy the folder ``source`` to ``target`` without following any link below ``source``.

    ``target`` is created (it must not exist), or with ``into_existing`` is an empty folder
    the grader made. Regular files keep their executable bits; folders are created 0755.
    ``skip`` leaves entries out. With a ``left_out`` list, a link (to a file or a folder,
    dangling or looping) is not copied but named there (:func:`link_left_out`), and the
    rest is copied; without it a link is refused. Raises :class:`LinkRefused`, :class:`SpecialFileRefused`
    or :class:`TooLarge` (each naming the entry relative to ``source``), or
    :class:`grader.intake.timecap.HostStepTimeout` past ``deadline``; what was copied so
    far stays in ``target`` for the caller to remove. ``OSError`` is a grader fault.
    """
    src_root = _open_root(source, create=False)
    try:
        dst_root = _open_root(target, create=not into_existing)
    except BaseException:
        os.close(src_root)
        raise
    files = folders = total = 0
    # Depth-first, holding descriptors only along the current path (at most MAX_DEPTH pairs).
    stack: list[tuple[int, int, PurePosixPath, Iterator[str]]] = []

    def push(src_fd: int, dst_fd: int, rel: PurePosixPath) -> None:
        stack.append((src_fd, dst_fd, rel, iter(sorted(os.listdir(src_fd)))))

    try:
        push(src_root, dst_root, PurePosixPath("."))
        while stack:
            src_fd, dst_fd, rel, names = stack[-1]
            name = next(names, None)
            if name is None:
                stack.pop()
                os.close(src_fd)
                os.close(dst_fd)
                continue
            check_deadline(deadline, step, seconds)
            entry_rel = rel / name
            info = os.lstat(name, dir_fd=src_fd)
            if skip is not None and skip(entry_rel, stat.S_ISDIR(info.st_mode)):
                continue
            if left_out is not None and stat.S_ISLNK(info.st_mode):
                left_out.append(link_left_out(entry_rel, _link_target(name, src_fd)))
                continue
            if files + folders >= max_files:
                raise TooLarge(entry_rel, f"takes the submission past {max_files:,} files and folders; "
                                          "hand in source files only")
            fd, opened = _open_entry(name, src_fd, entry_rel)
            if stat.S_ISDIR(opened.st_mode):
                if len(stack) >= MAX_DEPTH:
                    os.close(fd)
                    raise TooLarge(entry_rel, f"is nested more than {MAX_DEPTH} folders deep")
                try:
                    os.mkdir(name, 0o755, dir_fd=dst_fd)
                    new_dst = os.open(name, _DIR_FLAGS, dir_fd=dst_fd)
                except BaseException:
                    os.close(fd)
                    raise
                folders += 1
                push(fd, new_dst, entry_rel)
                continue
            try:
                mode = 0o755 if opened.st_mode & 0o111 else 0o644
                out = os.open(name, _CREATE_FLAGS, mode, dir_fd=dst_fd)
                try:
                    total += _copy_data(fd, out, max_bytes - total, entry_rel, deadline, step, seconds)
                finally:
                    os.close(out)
            finally:
                os.close(fd)
            files += 1
    finally:
        for src_fd, dst_fd, _, _ in stack:
            os.close(src_fd)
            os.close(dst_fd)
    return CopyStats(files, folders, total)


@contextlib.contextmanager
def _walk_to(root: Path, parts: tuple[str, ...], create: bool) -> Iterator[int]:
    """The fd of the folder ``root/parts``, reached without following a link (made if ``create``)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        for index, part in enumerate(parts):
            if part in ("", ".", ".."):
                raise ValueError(f"{'/'.join(parts)}: not a plain relative path")
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            try:
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                rel = PurePosixPath(*parts[:index + 1])
                if stat.S_ISLNK(os.lstat(part, dir_fd=fd).st_mode):
                    raise _refuse_link(part, fd, rel) from None
                raise SubmissionFileError(rel, "is not a folder") from None
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def _split(relpath: str | PurePosixPath) -> tuple[tuple[str, ...], str]:
    parts = PurePosixPath(relpath).parts
    if not parts or PurePosixPath(relpath).is_absolute() or any(p in (".", "..") for p in parts):
        raise ValueError(f"{relpath}: not a plain relative path")
    return parts[:-1], parts[-1]


def read_regular(root: Path, relpath: str | PurePosixPath, cap: int) -> tuple[bytes | None, bool]:
    """The first ``cap`` bytes of the regular file ``root/relpath`` and whether there was more.

    ``None`` when there is no such regular file: missing, a folder, a link (anywhere on the
    way below ``root``), a FIFO or a device all count as "not created", and none is followed
    or opened in a way that could block.
    """
    folders, name = _split(relpath)
    try:
        with _walk_to(root, folders, create=False) as dir_fd:
            info = os.lstat(name, dir_fd=dir_fd)
            if not stat.S_ISREG(info.st_mode):
                return None, False
            fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
    except (OSError, SubmissionFileError):
        return None, False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, False
        parts, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(CHUNK, cap + 1 - size))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(parts)
    return data[:cap], len(data) > cap


def is_regular(root: Path, relpath: str | PurePosixPath) -> bool:
    """Whether ``root/relpath`` is a regular file, reached without following any link."""
    folders, name = _split(relpath)
    try:
        with _walk_to(root, folders, create=False) as dir_fd:
            return stat.S_ISREG(os.lstat(name, dir_fd=dir_fd).st_mode)
    except (OSError, SubmissionFileError):
        return False


def exists(root: Path, relpath: str | PurePosixPath) -> bool:
    """Whether anything (a link too) is at ``root/relpath``, reached without following a link."""
    folders, name = _split(relpath)
    try:
        with _walk_to(root, folders, create=False) as dir_fd:
            os.lstat(name, dir_fd=dir_fd)
            return True
    except (OSError, SubmissionFileError):
        return False


def write_new(root: Path, relpath: str | PurePosixPath, data: bytes, mode: int = 0o644) -> None:
    """Create ``root/relpath`` holding ``data``; it must not exist, and no link on the way is followed.

    Missing folders on the way are made. Raises ``FileExistsError`` when the name is taken,
    :class:`SubmissionFileError` when a link or a file stands where a folder should be.
    """
    folders, name = _split(relpath)
    with _walk_to(root, folders, create=True) as dir_fd:
        fd = os.open(name, _CREATE_FLAGS, mode, dir_fd=dir_fd)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)


def make_folders(root: Path, relpath: str | PurePosixPath) -> None:
    """Make the folder ``root/relpath`` and its parents, following no link on the way."""
    with _walk_to(root, PurePosixPath(relpath).parts, create=True):
        pass


def open_new(root: Path, relpath: str | PurePosixPath, mode: int = 0o644) -> BinaryIO:
    """A binary file object for the new file ``root/relpath`` (as :func:`write_new`, streamed)."""
    folders, name = _split(relpath)
    with _walk_to(root, folders, create=True) as dir_fd:
        fd = os.open(name, _CREATE_FLAGS, mode, dir_fd=dir_fd)
    return os.fdopen(fd, "wb")


def remove_links(root: Path) -> list[str]:
    """Remove every symbolic link below ``root`` (a build's own output), following none; the notes.

    Works on folder descriptors (``os.fwalk`` never descends through a link), for a folder
    whose writers have all been killed.
    """
    notes = []
    for dirpath, dirnames, filenames, dir_fd in os.fwalk(root, follow_symlinks=False):
        for name in sorted(dirnames + filenames):
            if stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode):
                rel = PurePosixPath(os.path.relpath(os.path.join(dirpath, name), root))
                notes.append(link_left_out(rel, _link_target(name, dir_fd)))
                os.unlink(name, dir_fd=dir_fd)
    return notes


def remove_entry(root: Path, relpath: str | PurePosixPath) -> None:
    """Remove ``root/relpath`` (a file, a link itself, or a folder tree) without following links."""
    folders, name = _split(relpath)
    try:
        with _walk_to(root, folders, create=False) as dir_fd:
            info = os.lstat(name, dir_fd=dir_fd)
            if stat.S_ISDIR(info.st_mode):
                _remove_tree_at(dir_fd, name)
            else:
                os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass


def _remove_tree_at(dir_fd: int, name: str) -> None:
    """The folder ``name`` in ``dir_fd`` and all it holds, by descriptors: never follows a link inside.

    ``shutil.rmtree(name, dir_fd=...)`` does this from Python 3.11; the package supports 3.10, which lacks it."""
    if sys.version_info >= (3, 11):
        import shutil

        shutil.rmtree(name, dir_fd=dir_fd)
        return
    fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    _remove_tree_at(fd, entry.name)
                else:
                    os.unlink(entry.name, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=dir_fd)
