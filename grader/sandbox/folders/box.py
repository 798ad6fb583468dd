"""A case's run folder that never touches the disk: one per worker at a time, kept and emptied between runs.

A case run copies the built submission and the input in, runs, reads the answer and is done
with its folder. :func:`box` lends a folder for that: where the grader is root, a tmpfs
mounted once and reused by run after run (instead of a run folder made on disk, copied onto a
tmpfs mounted for the run, copied back and deleted), with its caps set for each run by a remount:
the size of what the grader put in plus the room a run may write
(:func:`grader.sandbox.folders.workdir.quota_bytes`), and at most :data:`ROOM_ENTRIES` files and folders
more than it held, so emptying it afterwards costs a bounded time whatever the run left. Where
no tmpfs can be mounted, it is a folder on disk, emptied the same way.

Between runs a folder is empty, root's and 0700; while a run runs, its content is the run's uid's
(:func:`grader.sandbox.runner.run_command`), and root's again before that uid can serve another
run. The folders live in a temp folder named after this grader (:mod:`grader.sandbox.sweep`
unmounts and removes a killed grader's) and are unmounted and removed when the process exits.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import stat
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import isolation, runner, sweep
from grader.sandbox.entry import resident
from grader.sandbox.folders import tmpfs, workdir
from grader.sandbox.limits import Limits, Outcome

ROOM_ENTRIES = 16_384
"""Files and folders a run may add to its box (a run that needs more is not solving a puzzle)."""
FILL_BYTES = 256 * 2**20
"""The cap while the grader fills a box (a built submission is at most 50 MB); a run gets its own."""
FILL_ENTRIES = 65_536


@dataclass
class Box:
    """One run's folder (``path``), held by one worker until the ``with`` of :func:`box` ends."""

    path: Path
    mounted: bool  # a tmpfs of its own, capped per run
    residents: resident.Residents = field(init=False)  # its resident sandboxes, started on first use

    def __post_init__(self) -> None:
        self.residents = resident.Residents(self.path)

    def run(self, argv: Sequence[str], limits: Limits, *, env: Mapping[str, str] | None = None,
            stdin_data: bytes | None = None, readable: Sequence[Path] = ()) -> Outcome:
        """Run ``argv`` here (see :func:`grader.sandbox.runner.run_command`); the folder keeps what it left."""
        if self.mounted:
            entries, quota = workdir.tally(self.path, limits)
            tmpfs.resize(self.path, quota, entries + 1 + ROOM_ENTRIES)
        return runner.run_command(argv, self.path, limits, env=env, stdin_data=stdin_data, readable=readable,
                                  in_place=True, residents=self.residents)


class _Shelf:
    """The boxes of this process: made on first use, handed out one worker at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: list[Box] = []
        self._made: list[Box] = []
        self._parent: Path | None = None
        self._owner = os.getpid()

    def take(self) -> Box:
        with self._lock:
            if self._free:
                return self._free.pop()
            if self._parent is None:
                self._parent = sweep.make_temp_folder()
                atexit.register(self.close)
            folder = self._parent / str(len(self._made))
            folder.mkdir(mode=0o700)
            made = Box(folder, False)
            self._made.append(made)
        if isolation.plan().workdir_tmpfs:
            with contextlib.suppress(OSError):  # refused (no CAP_SYS_ADMIN here): a folder on disk
                tmpfs.mount_tmpfs(folder, FILL_BYTES, inodes=FILL_ENTRIES)
                made.mounted = True
        return made

    def put_back(self, used: Box) -> None:
        """Empty ``used`` for its next run; a box that cannot be emptied is dropped (for :meth:`close`)."""
        try:
            _empty(used.path)
            if used.mounted:
                tmpfs.resize(used.path, FILL_BYTES, FILL_ENTRIES)
        except OSError:
            return
        with self._lock:
            self._free.append(used)

    def close(self) -> None:
        """Unmount and remove every box (at exit; the sweep does it for a killed grader)."""
        if os.getpid() != self._owner:  # a forked child inherits the atexit hook, not the mounts
            return
        with self._lock:
            made, self._made, self._free, parent = self._made, [], [], self._parent
        for each in made:
            each.residents.close()  # before the unmount: a resident holds its box bound
            if each.mounted:
                with contextlib.suppress(OSError):
                    tmpfs.unmount(each.path)
        if parent is not None:
            shutil.rmtree(parent, ignore_errors=True)


def _empty(folder: Path) -> None:
    """Remove everything in ``folder`` (never following a link: no run process is left to swap one in),
    and make it root's and 0700 again."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        for name in os.listdir(fd):
            if stat.S_ISDIR(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                shutil.rmtree(folder / name)  # fd-based: a link inside is removed, not followed
            else:
                os.unlink(name, dir_fd=fd)
        os.fchown(fd, os.geteuid(), os.getegid())
        os.fchmod(fd, 0o700)
    finally:
        os.close(fd)


_SHELF = _Shelf()


@contextlib.contextmanager
def box() -> Iterator[Box]:
    """An empty run folder for the ``with`` body, emptied when it ends."""
    lent = _SHELF.take()
    try:
        yield lent
    finally:
        _SHELF.put_back(lent)
