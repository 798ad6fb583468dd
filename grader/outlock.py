"""One results folder, one writer: a ``grade`` (or ``grade merge``) holds a lock on its ``--out`` while it runs.

Two runs into one folder would interleave their journals and reports (one wiping the journal the other
writes, one's results.json overwriting the other's students). So each takes an exclusive ``flock`` on
``OUT/.grade.lock`` first. A second run *waits* for the first, saying so once on stderr, and then goes
on: a regrade (``--only``, ``--cases``) started while another runs is merged over that run's results
instead of lost. The kernel drops the lock when its holder exits, even by ``kill -9``, so a stale lock
file never blocks anyone; the file records the holder's pid for the message.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from grader.errors import OutputDirError

LOCK_NAME = ".grade.lock"


def _open(out_dir: Path) -> int:
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputDirError(f"{out_dir}: expected a results folder, found a file")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        return os.open(out_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise OutputDirError(f"{out_dir}: cannot lock the results folder ({LOCK_NAME}): "
                             f"{exc.strerror or exc}") from None


@contextlib.contextmanager
def holding(out_dir: Path, say: Callable[[str], None]) -> Iterator[None]:
    """Hold ``out_dir``'s lock for the block; if another process holds it, ``say`` why and wait for it."""
    out_dir = Path(out_dir)
    fd = _open(out_dir)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "another process"
            say(f"grade: {out_dir} is in use by another grade ({holder}); waiting for it to finish "
                "(Ctrl-C to stop waiting)")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock
