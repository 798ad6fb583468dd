"""What every language's build shares: the names the grader reserves in a build or run folder, the
assignment's own files copied in, ``{placeholder}`` filling, the toolchain lookup, and a build step's
limits and log.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from grader.intake import safe_copy
from grader.sandbox import runner
from grader.testsets.assignment import Assignment

BUILD_LOG_BYTES = 200_000
RUN_NAMES = frozenset({".tmp"})
"""Top-level names the runner makes in a run folder (the run's TMPDIR)."""
RESERVED_NAMES = RUN_NAMES | {".grader"}
"""Top-level names the grader itself uses in a build or run folder (the assignment's Java
drivers and classpath, the run's TMPDIR): a student's entry of the same name is left out."""


def copy_into(path: Path, folder: Path) -> Path:
    """Copy one of the assignment's own files (trusted: its links are followed) over whatever
    the student had under that name (removed first, without following a link)."""
    target = folder / path.name
    safe_copy.remove_entry(folder, path.name)
    if path.is_dir():
        shutil.copytree(path, target, dirs_exist_ok=True)
    else:
        shutil.copy2(path, target)
    return target


def expand(template: tuple[str, ...], values: dict[str, str], lists: dict[str, list[str]]) -> tuple[str, ...]:
    """Fill ``{name}`` placeholders; an item that is exactly ``{sources}``/``{entry}`` becomes several."""
    out: list[str] = []
    for item in template:
        key = item[1:-1] if item.startswith("{") and item.endswith("}") else None
        if key in lists:
            out.extend(lists[key])
            continue
        filled = item
        for name, value in values.items():
            filled = filled.replace("{" + name + "}", value)
        out.append(filled)
    return tuple(out)


def run_template(assignment: Assignment, base: list[str]) -> list[str]:
    """A run's argv: ``base``, then the input file or the board when the assignment passes it as an argument."""
    return base + {"argv": ["{input}"], "board-arg": ["{board}"]}.get(assignment.io, [])


def tool(name: str) -> str | None:
    """A toolchain program as submissions will see it (the runner's PATH), else the grader's."""
    return shutil.which(name, path=runner.SYSTEM_PATH) or shutil.which(name)


def memory(assignment: Assignment) -> dict[str, str]:
    return {"memory_mb": str(assignment.limits.memory_mb), "heap_mb": str(assignment.limits.heap_mb)}


def build_log(outcome: runner.Outcome) -> str:
    return (outcome.stdout + outcome.stderr).decode("utf-8", "replace")


def build_limits(assignment: Assignment, jvm: bool) -> runner.Limits:
    """A build step's limits: the assignment's build time, at least 2 GB, a capped log."""
    return runner.Limits(wall_seconds=assignment.limits.build_seconds, memory_mb=max(2048, assignment.limits.memory_mb),
                         output_bytes=BUILD_LOG_BYTES, file_size_bytes=64_000_000, jvm=jvm)
