"""A run's stdin, stdout and stderr as pipes: nothing of them is a file a run could grow.

Output used to go to unlinked files on the host disk, which a run could extend past any
size limit with ``fallocate(FALLOC_FL_KEEP_SIZE)``. A pipe has no disk behind it: the
grader keeps the first ``cap + 1`` bytes of each stream (one past the cap, so truncation
shows), then closes its end, so a writer that goes on gets ``EPIPE``/``SIGPIPE`` instead of
filling anything. stdin is fed from a thread, so a run that never reads it blocks nobody.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import select
import threading
import time


class Capture:
    """Collects the read ends of stdout and stderr, each up to ``cap + 1`` bytes."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.out_read, self.out_write = os.pipe2(os.O_CLOEXEC)
        self.err_read, self.err_write = os.pipe2(os.O_CLOEXEC)
        self.data = {self.out_read: bytearray(), self.err_read: bytearray()}
        self.taken = 0
        """Bytes read so far from both pipes (kept or not): how a watcher tells a trickle from a stream."""
        self.open = {self.out_read, self.err_read}
        self.poller = select.poll()
        for fd in self.open:
            os.set_blocking(fd, False)
            self.poller.register(fd, select.POLLIN)

    def close_child_ends(self) -> None:
        """After the child started: only the run holds the write ends now (so EOF means it is gone)."""
        # Once only: a second close could hit a number another thread's new fd has by then.
        ends, self.out_write, self.err_write = (self.out_write, self.err_write), -1, -1
        for fd in ends:
            if fd >= 0:
                os.close(fd)

    def pump(self, timeout: float, also: int | None = None) -> bool:
        """Read what is ready for up to ``timeout`` seconds; True as soon as fd ``also`` (a pidfd) is readable."""
        if also is not None:
            self.poller.register(also, select.POLLIN)
        try:
            for fd, _ in self.poller.poll(max(0, math.ceil(timeout * 1000))):
                if fd == also:
                    return True
                self._read(fd)
            return False
        finally:
            if also is not None:
                self.poller.unregister(also)

    @staticmethod
    def wait(fd: int, seconds: float) -> bool:
        """Wait up to ``seconds`` for fd ``fd`` alone (a pidfd) to be readable, leaving the pipes unread."""
        waiter = select.poll()
        waiter.register(fd, select.POLLIN)
        return bool(waiter.poll(max(0, math.ceil(seconds * 1000))))

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno != errno.EIO:
                raise
            chunk = b""
        buffer = self.data[fd]
        self.taken += len(chunk)
        if chunk:
            buffer += chunk[:self.cap + 1 - len(buffer)]
        if not chunk or len(buffer) > self.cap:
            self._finish(fd)

    def _finish(self, fd: int) -> None:
        if fd in self.open:
            self.open.discard(fd)
            self.poller.unregister(fd)
            os.close(fd)  # a writer still going gets EPIPE: a full pipe never stalls it

    def drain(self, seconds: float) -> None:
        """Read to EOF (every writer is dead by now) for at most ``seconds``; then stop listening."""
        deadline = time.monotonic() + seconds
        while self.open and time.monotonic() < deadline:
            self.pump(deadline - time.monotonic())
        for fd in list(self.open):
            self._finish(fd)

    def result(self) -> tuple[bytes, bool, bytes, bool]:
        """stdout, whether it was cut, stderr, whether it was cut."""
        out, err = bytes(self.data[self.out_read]), bytes(self.data[self.err_read])
        return out[:self.cap], len(out) > self.cap, err[:self.cap], len(err) > self.cap

    def close(self) -> None:
        self.close_child_ends()
        for fd in list(self.open):
            self._finish(fd)


def feed(data: bytes) -> tuple[int, threading.Thread | None]:
    """A pipe's read end for the child's stdin, and the thread writing ``data`` into it (if any)."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    if len(data) <= select.PIPE_BUF:  # fits the pipe now: no thread
        os.write(write_end, data)
        os.close(write_end)
        return read_end, None

    def write_all() -> None:
        with contextlib.suppress(OSError):  # the run closed its stdin or ended: it read what it wanted
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view):]
        os.close(write_end)

    thread = threading.Thread(target=write_all, name="npuzzle-stdin", daemon=True)
    thread.start()
    return read_end, thread
