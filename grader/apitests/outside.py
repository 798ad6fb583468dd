"""What the judge reads about the worker from outside it: its CPU time and memory, from ``/proc``.

The worker's pid comes from its socket (``SO_PEERCRED``, in the judge's own PID namespace), so
nothing the worker says is needed to find it. These figures are the cross-checks of the
measures the worker takes next to the student's code (see ``docs/api-tests.md``). Where
``/proc`` cannot be read (another kernel, no permission) the figure reads 0 and the flag says
the cross-check is off.
"""

from __future__ import annotations

import os
import signal
import socket
import struct

TICKS = os.sysconf("SC_CLK_TCK")


class Peer:
    """The process at the other end of a Unix socket."""

    def __init__(self, conn: socket.socket) -> None:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        self.pid = struct.unpack("3i", creds)[0]
        try:  # a handle on this very process: a pid number could be reused after it died
            self.pidfd: int | None = os.pidfd_open(self.pid) if self.pid > 0 else None
        except OSError:
            self.pidfd = None
        self.measures_cpu = self.pid > 0 and self._stat() is not None
        self.measures_peak = self.pid > 0 and self._write_clear_refs()

    def _stat(self) -> list[str] | None:
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rpartition(")")[2].split()
        except OSError:
            return None

    def cpu(self) -> float:
        """User and system CPU seconds the worker has used (its own, not its children's)."""
        fields = self._stat()
        return (int(fields[11]) + int(fields[12])) / TICKS if fields else 0.0

    def _status(self, key: str) -> int:
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith(key + ":"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
        return 0

    def rss(self) -> int:
        return self._status("VmRSS")

    def peak(self) -> int:
        return self._status("VmHWM")

    def _write_clear_refs(self) -> bool:
        try:
            with open(f"/proc/{self.pid}/clear_refs", "w") as refs:
                refs.write("5")  # resets VmHWM to the current resident size
            return True
        except OSError:
            return False

    def kill(self) -> None:
        """End the worker now (it hangs past a deadline, maybe holding its own watchdog off): its test is lost,
        the part's time is not. Where the grader may not signal it, the run's wall limit ends it."""
        if self.pidfd is not None:
            try:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            except OSError:
                pass

    def close(self) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def reset_peak(self) -> None:
        if self.measures_peak:
            self._write_clear_refs()
