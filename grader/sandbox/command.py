"""The full argv of a run, outermost first: the isolation prefix (bwrap, unshare or the reaper shim),
the uid drop, then the submission's own argv; where no bwrap holds the run's first process
(:mod:`grader.sandbox.admission`), a ``sh`` that joins the slot's cgroups comes first.

Each layer is a program that execs the next, so the submission's pid, signals and exit
status pass through unchanged. The rlimits bind the run's processes, never bwrap itself or the
copies in and out of a capped workdir: under bwrap the runner sets them on the sandbox's first
process while bwrap holds it; elsewhere the reaper shim sets them in the submission's process.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from grader.sandbox import cgroups, isolation, rlimits
from grader.sandbox.limits import Limits

REAPER = Path(__file__).with_name("reaper.py")


def install_prefixes(program: str) -> list[Path]:
    """The install folder of an interpreter outside the system dirs (``/opt/x/bin/java`` -> ``/opt/x``).

    bwrap shows the submission only the system dirs, so an absolute ``argv[0]`` such as a
    pyenv or venv Python would not exist inside; its prefix (never the repository) is
    bound read-only.
    """
    if not os.path.isabs(program):
        return []
    found = []
    for path in (Path(program), Path(program).resolve()):
        outside = not any(str(path).startswith(d + "/") for d in isolation.SYSTEM_DIRS)
        if outside and path.parent.name == "bin" and path.parent.parent != Path("/") and path.exists():
            found.append(path.parent.parent)
    return list(dict.fromkeys(found))


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


def inside(workdir: Path, plan: isolation.Plan) -> str:
    """The workdir's path as the run sees it."""
    return isolation.BOX if plan.namespace == "bwrap" else str(workdir)


def neutral(values: Sequence[str], workdir: Path, plan: isolation.Plan) -> list[str]:
    """``values`` (argv, environment) with the workdir's host path replaced by its path inside."""
    if plan.namespace != "bwrap":
        return list(values)
    host = re.compile(re.escape(str(workdir)) + r"(?=/|:|$)")
    return [host.sub(isolation.BOX, value) for value in values]


def rlimit_values(argv: Sequence[str], workdir: Path, plan: isolation.Plan, limits: Limits,
                  uid: int | None) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) of a run of ``argv`` as ``uid``, within the grader's own hard limits."""
    if not plan.rlimits:
        return []
    return rlimits.within_ours(rlimits.rlimit_values(limits, uid is not None, _final(argv, workdir, plan)))


def _final(argv: Sequence[str], workdir: Path, plan: isolation.Plan) -> list[str]:
    return neutral(without_perf_file(argv, plan), workdir, plan)


def build(argv: Sequence[str], workdir: Path, readable: Sequence[Path], plan: isolation.Plan, limits: Limits,
          info_fd: int | None, uid: int | None, group: cgroups.SlotGroup | None,
          seccomp_fd: int | None = None, block_fd: int | None = None) -> list[str]:
    """The argv to start for a run of ``argv`` as ``uid`` (None: the grader's own) in slot ``group``;
    under bwrap ``seccomp_fd`` holds the filter, elsewhere the reaper loads ``plan.seccomp`` itself.
    Under bwrap the runner admits the run into ``group`` and sets its rlimits while ``block_fd`` holds it."""
    values = rlimit_values(argv, workdir, plan, limits, uid)
    argv = _final(argv, workdir, plan)
    if plan.namespace == "bwrap":
        paths = [Path(p).resolve() for p in readable]
        paths += [p for p in install_prefixes(argv[0]) if not any(p.is_relative_to(r) for r in [workdir, *paths])]
        held = block_fd is not None  # held, the runner admits it; else a sh joins and prlimit limits as before
        join = cgroups.join_argv(group) if group is not None and not held else []
        limiter = rlimits.prlimit_argv(values) if values and not held else []
        return join + isolation.bwrap_prefix(isolation.tool("bwrap"), workdir, paths, uid, info_fd, limiter,
                                             own_userns=plan.userns, seccomp_fd=seccomp_fd,
                                             block_fd=block_fd) + list(argv)
    join = cgroups.join_argv(group) if group is not None else []
    encoded = ",".join(f"{res}:{soft}:{hard}" for res, soft, hard in values) or "-"
    reaper = [sys.executable, "-I", "-S", str(REAPER)]
    if plan.seccomp is not None:
        reaper += ["--seccomp", plan.seccomp.hex()]
    identity = [str(uid) if uid is not None else "-", encoded, "--"]
    if plan.namespace == "unshare":  # the reaper is the namespace's init: it cannot die of our kill
        private_tmp = ["--private-tmp", str(isolation.TMP_SIZE_BYTES)]
        for path in dict.fromkeys([workdir, *(Path(p).resolve() for p in readable), *install_prefixes(argv[0])]):
            private_tmp += ["--keep", str(path)]
        return join + isolation.unshare_prefix(isolation.tool("unshare")) + reaper + private_tmp + identity + list(argv)
    return join + reaper + identity + list(argv)
