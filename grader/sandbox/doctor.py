"""``grade doctor``: which isolation layers work on this machine, and why the others do not."""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path
from tempfile import TemporaryDirectory

import click

from grader.sandbox import isolation, runner


def report(chosen: isolation.Plan, overhead_ms: float | None) -> list[str]:
    """The doctor's lines: one per layer, then the layers a run gets and what a run costs."""
    lines = [f"{'on ' if s.available else 'off'}  {s.name:<10} {s.reason}" for s in chosen.statuses]
    lines.append("")
    lines.append("runs get: " + ", ".join(chosen.layers))
    lines += chosen.notes
    if overhead_ms is not None:
        lines.append(f"overhead: {overhead_ms:.1f} ms per run (/bin/true, median of 5)")
    return lines


def measure_overhead(runs: int = 5) -> float:
    """Median wall time of ``run_command(["/bin/true"])`` in milliseconds."""
    times = []
    with TemporaryDirectory(prefix="npuzzle-doctor-") as tmp:
        # Runs may drop to another uid (without bwrap, the folder itself is shared): it may pass, not list.
        os.chmod(tmp, 0o711)
        for _ in range(runs):
            workdir = Path(tmp, f"run{len(times)}")
            workdir.mkdir()
            started = time.perf_counter()
            runner.run_command(["/bin/true"], workdir, runner.Limits(wall_seconds=10))
            times.append((time.perf_counter() - started) * 1000)
    return sorted(times)[len(times) // 2]


@click.command("doctor")
@click.option("--no-measure", is_flag=True, help="Skip timing a trivial run.")
def doctor(no_measure: bool) -> int:
    """Show which isolation layers `grade` uses here, and why any is unavailable.

    Set NPUZZLE_SANDBOX_DISABLE=bwrap,unshare,... to switch layers off.
    """
    with warnings.catch_warnings():  # the notes below already say what degraded
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        chosen = isolation.plan()
        overhead = None if no_measure else measure_overhead()
    for line in report(chosen, overhead):
        click.echo(line)
    return 0
