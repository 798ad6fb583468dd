"""What a harness launcher makes of a run folder: the argv, and the folders the sandbox must show."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Prepared:
    """``problem`` is set instead when the run cannot happen (a grader fault, or no class to test)."""

    argv: tuple[str, ...]
    readable: tuple[Path, ...] = ()
    stdin: bytes | None = None
    problem: str | None = None
