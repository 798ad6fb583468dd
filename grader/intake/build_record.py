"""The build record: what building one submission gave (a runnable bundle and its argv), or why it could not.

Every language's build returns one (:mod:`grader.intake.build` dispatches); grading, the API tests and the
reports read it. A student's fault is a ``CE``, the grader's setup a ``JE``; neither raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from grader.judging.verdicts import Verdict
from grader.model.journal import Language
from grader.model.results import BuildRecord


@dataclass(frozen=True)
class Build:
    """A built submission, or why it could not be built (``failure`` is CE or JE)."""

    language: Language
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

    def record(self) -> BuildRecord:
        """What results.json and the journal keep of the build (the optional keys only when they apply)."""
        optional: dict[str, Any] = {}
        if self.library is not None:
            optional["algs4"] = self.library
        if self.left_out:
            optional["left_out"] = self.left_out
        return BuildRecord(language=self.language, ok=self.ok, entry=self.entry, verdict=_build_verdict(self.failure),
                           message=self.message, log=self.log, seconds=round(self.seconds, 3), **optional)


def _build_verdict(verdict: Verdict | None) -> Literal[Verdict.CE, Verdict.JE] | None:
    """A build fails as the student's CE or the grader's JE, nothing else (results.json's schema says so)."""
    if verdict is Verdict.CE or verdict is Verdict.JE or verdict is None:
        return verdict
    raise ValueError(f"a build cannot end in {verdict.value}")
