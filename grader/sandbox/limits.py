"""What a run may use (:class:`Limits`) and what it did (:class:`Outcome`): the sandbox's two values.

Plain data, shared by the runner that applies the limits, the rlimit arithmetic and every
caller that turns an outcome into a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

SHIM_EXIT = 125
"""The exit code of the grader's own shims (the join ``sh``, the reaper) when they fail before the submission runs."""
SHIM_FAULT = "grader sandbox: [{token}] "
"""How those shims begin their failure message on stderr. ``token`` is the run's secret (a fresh one per run):
a submission can print anything and exit 125 too, and only a message carrying the token is the shims'."""
TOKEN_ENV = "NPUZZLE_SHIM_TOKEN"
"""Where the reaper shim finds the token: its environment, dropped before the submission starts (no other uid
may read a process's environment; anyone may read its command line)."""


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 10.0
    cpu_seconds: float | None = None   # None: same as wall
    memory_mb: int = 1024              # address-space limit, or -Xmx + data limit when jvm=True
    output_bytes: int = 1_000_000      # cap for each of stdout and stderr
    file_size_bytes: int = 16_000_000
    open_files: int = 256
    jvm: bool = False


@dataclass(frozen=True, kw_only=True)  # by name only: ten positional fields of alike types are easy to misplace
class Outcome:
    exit_code: int | None      # None when killed by a signal
    signal: int | None
    timed_out: bool            # wall cap (active time, see active_seconds) or CPU limit reached
    memory_exceeded: bool      # OOM-killed in its cgroup, or a printed MemoryError/OutOfMemoryError confirmed
    #                            by its measured RSS (runner.out_of_memory)
    wall_seconds: float
    cpu_seconds: float         # every process of the run together (its cgroup), else what rusage saw
    stdout: bytes              # capped at limits.output_bytes
    stderr: bytes
    stdout_truncated: bool
    stderr_truncated: bool
    memory_peak_bytes: int | None = None   # the slot cgroup's peak, None without cgroups
    process_limit_hit: bool = False        # a fork or thread creation failed at the run's process limit
    cpu_wait_seconds: float | None = None  # runnable but waiting for a CPU (not counted by the wall cap); None:
                                           # this kernel does not say (grader.sandbox.cpuwait)
    grader_note: str = ""                  # what the grader measured against the program's own claim, for the
                                           # message (not in stderr, where a program could print its like)

    @property
    def active_seconds(self) -> float:
        """The wall time the run ran or chose to wait: what its wall cap counts."""
        return max(0.0, self.wall_seconds - (self.cpu_wait_seconds or 0.0))
