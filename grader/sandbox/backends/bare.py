"""The bare backend: no namespace; the reaper shim (:mod:`grader.sandbox.reaper`) holds each run.

The shim is a child subreaper: it joins the run's slot, sets its rlimits, drops its uid and loads the
system-call filter in the child, then kills and reaps whatever the submission leaves behind. Under
``unshare`` (:mod:`grader.sandbox.backends.unshare`) the same shim is the namespace's init.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from grader.sandbox import cgroups
from grader.sandbox.backends.base import Backend, LayerStatus, Wrapping, wait_exit

REAPER = Path(__file__).resolve().parent.parent / "reaper.py"
REAPER_GRACE_SECONDS = 2.0  # for the shim to kill and reap what is left, after a time-out


def reaper_argv(run: Wrapping) -> tuple[list[str], list[str]]:
    """The shim's argv, before and after its own options: ``[python reaper.py --seccomp HEX]`` and
    ``[UID LIMITS --]``."""
    shim = [sys.executable, "-I", "-S", str(REAPER)]
    if run.seccomp is not None:
        shim += ["--seccomp", run.seccomp.hex()]
    encoded = ",".join(f"{res}:{soft}:{hard}" for res, soft, hard in run.rlimits) or "-"
    return shim, [str(run.uid) if run.uid is not None else "-", encoded, "--"]


def join_argv(run: Wrapping) -> list[str]:
    """A ``sh`` that joins the slot's cgroups first (none where there are no cgroups)."""
    return cgroups.join_argv(run.group, run.token) if run.group is not None else []


class Bare(Backend):
    name = "reaper"
    layers = ("reaper",)
    namespaces = False
    private_view = False
    held = False
    userns = False
    tmp_view = "/tmp the host's (no mount namespace; TMPDIR points into the workdir)"
    as_fallback = "rlimits, a process group and a reaper shim only (no namespaces)"

    def wrap(self, argv: Sequence[str], run: Wrapping) -> list[str]:
        shim, identity = reaper_argv(run)
        return join_argv(run) + shim + identity + list(argv)

    def probe(self, drop_uid: int | None) -> LayerStatus:
        if not sys.platform.startswith("linux"):
            return LayerStatus("subreaper", False, "prctl(PR_SET_CHILD_SUBREAPER) is Linux-only")
        return LayerStatus("subreaper", True, "each run's shim is a child subreaper: orphans are killed and reaped")

    def on_timeout(self, pid: int, group: cgroups.SlotGroup | None, uid: int | None) -> None:
        """Let the reaper shim kill and reap the daemons that left the group first."""
        if group is not None:
            with contextlib.suppress(OSError):
                group.kill_all(spare=frozenset({pid}), uid=uid)
        os.kill(pid, signal.SIGTERM)
        wait_exit(pid, REAPER_GRACE_SECONDS)
