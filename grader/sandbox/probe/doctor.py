"""``grade doctor``: which isolation layers work on this machine, and why the others do not."""

from __future__ import annotations

import shutil
import time
import warnings
from pathlib import Path

import click

from grader.sandbox import isolation, runner, slots, sweep
from grader.sandbox.probe import system_tools


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
    times: list[float] = []
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


def tool_lines() -> list[str]:
    """One line per system tool that is missing, with what it is for and the package that brings it."""
    lines = [f"missing  {t.name:<12} for {t.used_for} (package {t.package})" for t in system_tools.missing()]
    if lines:
        lines.append("`grade doctor --install` installs them (apt-get, as root)")
    return lines


@click.command("doctor")
@click.option("--no-measure", is_flag=True, help="Skip timing a trivial run.")
@click.option("--install", is_flag=True,
              help="First install the missing system tools (JDK, bubblewrap, ...) with apt-get; needs root.")
@click.option("--grading-only", is_flag=True,
              help="With --install: only what grading uses, not what the test suite alone needs.")
def doctor(no_measure: bool, install: bool, grading_only: bool) -> int:
    """Show which isolation layers `grade` uses here, and why any is unavailable.

    Set NPUZZLE_SANDBOX_DISABLE=bwrap,unshare,per-run-uid,cgroup,... to switch layers off.
    """
    if install:
        wanted = system_tools.missing(with_test_tools=not grading_only)
        system_tools.install(wanted, click.echo)
        click.echo("system tools: " + ("installed " + ", ".join(t.name for t in wanted) if wanted
                                       else "all present"))
    with warnings.catch_warnings():  # the notes below already say what degraded
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        chosen = isolation.plan()
        slots.pool()  # makes the slots, and sweeps what killed graders left
        overhead = None if no_measure else measure_overhead()
    for line in report(chosen, overhead, slots.last_sweep()) + tool_lines():
        click.echo(line)
    return 0
