"""The bwrap sandbox's init program (``boxinit.c``): compiled once per machine, run as each sandbox's PID 1.

Its arguments are the bwrap backend's (:func:`grader.sandbox.backends.bubblewrap.init_arguments`).
It replaces three steps of a run with one program start: the ``sh`` that was the namespace's init, the
runner's move of the sandbox into its slot's cgroups (by pid: a wait for an RCU grace period on cgroup
v1, ~10 ms), and ``setpriv`` (the uid drop). It joins the slot itself through fds the runner opened,
sets the run's rlimits and drops the uid in the program's process, then waits for the program; the C
file's header says each step. Measured (``bench/sandbox_overhead.py``, a case's run of ``/bin/true``, with
and without it, alternated): 2.2 ms of CPU and 2–3 ms of median wall time less per run (docs/performance.md).

It is built with the system C compiler into the cache folder (:func:`solver.fileio.compiled`, a folder
of ours that nobody else may write, since root runs what is there); a machine without a compiler keeps
the three steps (:func:`build` says why, and ``grade doctor`` shows it), as does ``NPUZZLE_SANDBOX_DISABLE=init``.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from solver.fileio import compiled

SOURCE = Path(__file__).with_name("boxinit.c")
_STATIC = ("-O2", "-std=gnu99", "-static")  # no dynamic loader to start: a few hundred microseconds a run
_DYNAMIC = ("-O2", "-std=gnu99")


@functools.cache
def build() -> Path | str:
    """The compiled program, or why there is none (cached for the process)."""
    try:  # static where the machine has a static C library, else dynamic
        return compiled([SOURCE], _STATIC, "boxinit", fallback=[_DYNAMIC])
    except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
        return f"it could not be compiled: {exc}"
