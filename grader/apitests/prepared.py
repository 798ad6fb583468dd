"""What a harness launcher makes of a run folder: the argv, and the folders the sandbox must show."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Prepared:
    """``problem`` is set instead when the run cannot happen (a grader fault, or no class to test)."""

    argv: tuple[str, ...]
    readable: tuple[Path, ...] = ()
    stdin: bytes | None = None
    problem: str | None = None
    hello: dict[str, Any] | None = None
    """The worker's first line (Java: the class names it tests), instead of the battery's own settings."""
