"""A time cap on each step of the grader's own work on a submission's data.

Copying a submission, reading its Java sources, checking its output and reading hints
out of its stderr all run in the grader's process, where every worker thread waits on
them. Their inputs are capped in size and parsed in linear time; the cap here is the
backstop, so that a step that still runs too long becomes that submission's verdict
(:class:`HostStepTimeout`) instead of a stalled grader.

:func:`capped` runs a step on a helper thread and stops waiting at the cap. Python
cannot stop a thread, so the step goes on in the background until it ends (its inputs
are bounded, so it does); nothing waits for it and its result is dropped. Steps that can
check a deadline themselves (the copies of :mod:`grader.intake.safe_copy`) take one and
stop cleanly instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from grader.judging.verdicts import Verdict

T = TypeVar("T")

COPY_SECONDS = 60.0
"""Copying a submission into a build or run folder (at most 50 MB and 5,000 files)."""
PARSE_SECONDS = 20.0
"""Reading a submission's sources to find its main class (tree-sitter: milliseconds per MB)."""
CHECK_SECONDS = 20.0
"""Parsing and verifying one run's output and reading hints from its stderr (each at most a few MB)."""


class StudentFault(Exception):
    """Something a submission did that the grader's own work refuses: it becomes ``verdict``, never JE."""

    verdict: Verdict = Verdict.CE

    def __init__(self, message: str, verdict: Verdict | None = None) -> None:
        super().__init__(message)
        if verdict is not None:
            self.verdict = verdict


class HostStepTimeout(StudentFault):
    """A host-side step on a submission's data ran past its cap."""

    def __init__(self, step: str, seconds: float, verdict: Verdict = Verdict.CE) -> None:
        super().__init__(f"the grader stopped {step} after {seconds:g} s (the time cap for this step); "
                         "the submission's files or output are too large or too convoluted to process", verdict)
        self.step, self.seconds = step, seconds


def deadline_after(seconds: float) -> float:
    """The ``time.monotonic()`` value at which a step of ``seconds`` must stop."""
    return time.monotonic() + seconds


def check_deadline(deadline: float | None, step: str, seconds: float, verdict: Verdict = Verdict.CE) -> None:
    """Raise :class:`HostStepTimeout` when ``deadline`` (a monotonic time) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise HostStepTimeout(step, seconds, verdict)


def capped(step: str, seconds: float, function: Callable[..., T], *args: Any, verdict: Verdict = Verdict.CE,
           **kwargs: Any) -> T:
    """``function(*args, **kwargs)``, or :class:`HostStepTimeout` (with ``verdict``) after ``seconds``.

    Exceptions of ``function`` are raised here as they are. ``step`` names the work in the
    message ("checking the output").
    """
    value: list[T] = []
    error: list[BaseException] = []
    done = threading.Event()

    def target() -> None:
        try:
            value.append(function(*args, **kwargs))
        except BaseException as exc:  # handed to the caller's thread, which re-raises it
            error.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=target, name=f"capped-{step}", daemon=True)
    worker.start()
    if not done.wait(seconds):
        raise HostStepTimeout(step, seconds, verdict)
    if error:
        raise error[0]
    return value[0]
