"""The build record: what building one submission gave (a runnable bundle and its argv), or why it could not.

Every language's build returns one (:mod:`grader.intake.build` dispatches); grading, the API tests and the
reports read it. A student's fault is a ``CE``, the grader's setup a ``JE``; neither raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.judging.verdicts import Verdict


@dataclass(frozen=True)
class Build:
    """A built submission, or why it could not be built (``failure`` is CE or JE)."""

    language: str
    bundle: Path | None
    run_argv: tuple[str, ...] = ()
    jvm: bool = False
    readable: tuple[Path, ...] = ()
    entry: str | None = None
    failure: Verdict | None = None
    message: str = ""
    log: str = ""
    seconds: float = 0.0
    library: str | None = None
    """The algs4 edition the submission was compiled against (:mod:`grader.intake.java.algs4`), when configured."""
    run_hint: str = ""
    """Why a run may write nothing (an empty ``main``), added to a ``NO`` verdict's message."""
    left_out: tuple[str, ...] = ()
    """Entries not copied (symbolic links), each a sentence naming it: shown in the feedback."""

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict:
        data = {"language": self.language, "ok": self.ok, "entry": self.entry,
                "verdict": self.failure.value if self.failure else None, "message": self.message,
                "log": self.log, "seconds": round(self.seconds, 3)}
        if self.library is not None:
            data["algs4"] = self.library
        if self.left_out:
            data["left_out"] = list(self.left_out)
        return data
