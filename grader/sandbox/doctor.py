"""``grade doctor``: which isolation layers work on this machine, and why the others do not."""

from __future__ import annotations

import shutil
import time
import warnings
from pathlib import Path

import click

from grader.sandbox import isolation, runner, slots, sweep


def report(chosen: isolation.Plan, overhead_ms: float | None, swept: sweep.Swept | None = None) -> list[str]:
    """The doctor's lines: one per layer, then the layers a run gets, the sweep, and what a run costs."""
    lines = [f"{'on ' if s.available else 'off'}  {s.name:<11} {s.reason}" for s in chosen.statuses]
    lines.append("")
    lines.append("runs get: " + ", ".join(chosen.layers))
    lines += chosen.notes
    if swept is not None:
        lines.append(f"sweep: removed {len(swept.folders)} temp folder(s) and {len(swept.groups)} cgroup(s) "
                     "of graders that are gone" + "".join(f"; {problem}" for problem in swept.problems))
    if overhead_ms is not None:
        lines.append(f"overhead: {overhead_ms:.1f} ms per run (/bin/true, median of 5)")
    return lines


def measure_overhead(runs: int = 5) -> float:
    """Median wall time of ``run_command(["/bin/true"])`` in milliseconds."""
    times = []
    folder = sweep.make_temp_folder()  # passable (0711) by the uids that run submissions, as the grader's are
    try:
        for _ in range(runs):
            workdir = Path(folder, f"run{len(times)}")
            workdir.mkdir()
            started = time.perf_counter()
            runner.run_command(["/bin/true"], workdir, runner.Limits(wall_seconds=10))
            times.append((time.perf_counter() - started) * 1000)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return sorted(times)[len(times) // 2]


@click.command("doctor")
@click.option("--no-measure", is_flag=True, help="Skip timing a trivial run.")
def doctor(no_measure: bool) -> int:
    """Show which isolation layers `grade` uses here, and why any is unavailable.

    Set NPUZZLE_SANDBOX_DISABLE=bwrap,unshare,per-run-uid,cgroup,... to switch layers off.
    """
    with warnings.catch_warnings():  # the notes below already say what degraded
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        chosen = isolation.plan()
        slots.pool()  # makes the slots, and sweeps what killed graders left
        overhead = None if no_measure else measure_overhead()
    for line in report(chosen, overhead, slots.last_sweep()):
        click.echo(line)
    return 0
