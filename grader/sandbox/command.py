"""The full argv of a run, outermost first: the isolation prefix (bwrap, unshare or the reaper shim),
the uid drop, then the submission's own argv; where no bwrap holds the run's first process
(:mod:`grader.sandbox.entry.admission`), a ``sh`` that joins the slot's cgroups comes first.

Each layer is a program that execs the next, so the submission's pid, signals and exit
status pass through unchanged. The rlimits bind the run's processes, never bwrap itself or the
copies in and out of a capped workdir: under bwrap its compiled init sets them in the submission's
process (or, without it, the runner on the sandbox's first process while bwrap holds it); elsewhere the
reaper shim sets them in the submission's process.
What differs by mode is the plan's backend's (:mod:`grader.sandbox.backends`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from grader.sandbox import cgroups, isolation, rlimits
from grader.sandbox.backends.base import Wrapping
from grader.sandbox.limits import Limits

JVM_TOOLS = ("javac", "jar", "javadoc", "jshell", "jdeps")


def without_perf_file(argv: Sequence[str], plan: isolation.Plan) -> list[str]:
    """A JVM flocks its ``hsperfdata`` file at start; the filter refuses that, and the JVM would say
    so on standard output: under the filter it starts with no perf-data file."""
    argv = list(argv)
    if plan.seccomp is None or not argv:
        return argv
    name = os.path.basename(argv[0])
    if name == "java":
        return [argv[0], "-XX:-UsePerfData", *argv[1:]]
    if name in JVM_TOOLS:
        return [argv[0], "-J-XX:-UsePerfData", *argv[1:]]
    return argv


def rlimit_values(argv: Sequence[str], workdir: Path, plan: isolation.Plan, limits: Limits,
                  uid: int | None) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) of a run of ``argv`` as ``uid``, within the grader's own hard limits."""
    if not plan.rlimits:
        return []
    return rlimits.within_ours(rlimits.rlimit_values(limits, uid is not None, final_argv(argv, workdir, plan)))


def final_argv(argv: Sequence[str], workdir: Path, plan: isolation.Plan) -> list[str]:
    """The submission's argv as the run starts it (the box's path inside, no JVM perf file under the filter)."""
    return plan.backend.neutral(without_perf_file(argv, plan), workdir)


def build(argv: Sequence[str], workdir: Path, readable: Sequence[Path], plan: isolation.Plan, limits: Limits,
          info_fd: int | None, uid: int | None, group: cgroups.SlotGroup | None,
          seccomp_fd: int | None = None, block_fd: int | None = None, token: str = "",
          join_fds: tuple[int, ...] = ()) -> list[str]:
    """The argv to start for a run of ``argv`` as ``uid`` (None: the grader's own) in slot ``group``;
    under bwrap ``seccomp_fd`` holds the filter, elsewhere the reaper loads ``plan.seccomp`` itself.
    Under bwrap the compiled init (``plan.init``) joins ``group`` through ``join_fds`` and sets the rlimits;
    without it, the runner admits the run into ``group`` and sets its rlimits while ``block_fd`` holds it."""
    run = Wrapping(workdir, readable, uid, group, rlimit_values(argv, workdir, plan, limits, uid), plan.seccomp,
                   plan.userns, info_fd, seccomp_fd, block_fd, plan.init, join_fds, token)
    return plan.backend.wrap(final_argv(argv, workdir, plan), run)
