"""Whether the JVM itself starts under a run's limits: the grader's own evidence for a JE.

A run whose output says the JVM could not start ("Error occurred during initialization of
VM", "Could not reserve enough space for object heap") may be the grader's setup at fault
(a heap that does not fit the memory limit), or a student's program that printed that text
and exited. Text a program prints is evidence, never a verdict: before a run is called a
JVM start failure (JE), the grader starts the same ``java`` with the same JVM options under
the same limits, without the student's code (``java <options> -version``). Only if that
fails too is the fault confirmed. The answer is cached per (java options, limits): one
probe per grading run and setting, not one per case.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from grader.sandbox import runner
from grader.sandbox.limits import Limits

PROBE_OPTION_PREFIXES = ("-X", "-D", "-ea", "-da", "-server", "-client")
"""The run argv's options that shape the JVM's start (heap, stack, GC, properties); the class path
and the main class are the student's and are left out."""

_cache: dict[tuple[tuple[str, ...], Limits], bool] = {}
_lock = threading.Lock()


def probe_argv(run_argv: Sequence[str]) -> list[str]:
    """``java`` and the run's JVM options, then ``-version``: the run without the student's code.

    >>> probe_argv(["/usr/bin/java", "-Xmx256m", "-Xss8m", "-cp", "classes", "Main", "input.txt"])
    ['/usr/bin/java', '-Xmx256m', '-Xss8m', '-version']
    """
    options = [arg for arg in run_argv[1:] if arg.startswith(PROBE_OPTION_PREFIXES)]
    return [run_argv[0], *options, "-version"]


def jvm_starts(run_argv: Sequence[str], limits: Limits, folder: Callable[[], Path]) -> bool:
    """Whether ``java`` with the run's options starts under ``limits`` (cached; probed in ``folder()``, a
    fresh run folder, removed after). A probe that cannot even be run counts as "does not start"."""
    argv = probe_argv(run_argv)
    key = (tuple(argv), limits)
    with _lock:
        if key in _cache:
            return _cache[key]
    workdir = folder()
    try:
        outcome = runner.run_command(argv, workdir, limits)
        started = outcome.exit_code == 0 and not outcome.timed_out
    except OSError:
        started = False
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    with _lock:
        _cache[key] = started
    return started


def forget() -> None:
    """Drop the cached answers (a test, or a machine whose memory changed)."""
    with _lock:
        _cache.clear()
