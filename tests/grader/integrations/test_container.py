"""Reading a container's CPU quota and memory limit (cgroup v1 and v2), and sizing a run to them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.integrations.container import Capacity, read_capacity, size_run

V1_MOUNTS = """\
30 25 0:26 / /CG/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu
31 25 0:27 / /CG/memory rw,relatime shared:10 - cgroup cgroup rw,memory
32 25 0:28 / /CG/unified rw,relatime - cgroup2 cgroup2 rw
"""
V2_MOUNTS = "35 25 0:30 / /CG rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"


def _fake(tmp_path: Path, mounts: str, cgroup: str, files: dict[str, str]) -> Path:
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "mountinfo").write_text(mounts.replace("/CG", str(tmp_path / "cg")))
    (proc / "cgroup").write_text(cgroup)
    for name, text in files.items():
        path = tmp_path / "cg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return proc


def test_v1_quota_and_the_tightest_memory_limit_along_the_ancestors(tmp_path: Path) -> None:
    proc = _fake(tmp_path, V1_MOUNTS, "4:memory:/outer/job\n1:cpu:/job\n0::/\n", {
        "cpu/job/cpu.cfs_quota_us": "50000", "cpu/job/cpu.cfs_period_us": "100000",
        "cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000",
        "memory/outer/job/memory.limit_in_bytes": str(4 << 30),
        "memory/outer/memory.limit_in_bytes": str(768 << 20),  # the parent is tighter
        "memory/memory.limit_in_bytes": "9223372036854771712"})
    capacity = read_capacity(proc)
    assert capacity.cpus == 0.5 and capacity.memory_mb == 768
    assert "cgroup v1" in capacity.cpu_source and capacity.memory_source.endswith("memory/outer")


def test_v2_cpu_max_and_memory_max(tmp_path: Path) -> None:
    proc = _fake(tmp_path, V2_MOUNTS, "0::/grading\n", {
        "grading/cpu.max": "150000 100000", "grading/memory.max": str(2 << 30), "cpu.max": "max 100000"})
    capacity = read_capacity(proc)
    assert capacity.cpus == min(1.5, len(os.sched_getaffinity(0))) and capacity.memory_mb == 2048


def test_no_limits_or_unreadable_files_mean_no_limit(tmp_path: Path) -> None:
    proc = _fake(tmp_path, V2_MOUNTS, "0::/\n", {"cpu.max": "max 100000", "memory.max": "max"})
    capacity = read_capacity(proc)
    assert capacity.memory_mb is None and capacity.cpus >= 1
    empty = tmp_path / "nothing"
    empty.mkdir()
    assert read_capacity(empty).memory_mb is None


@pytest.mark.parametrize("cpus, memory, asked, jobs, per_run", [
    (0.5, 768, 1024, 1, 608),     # Gradescope's default container: one run, memory capped below the container
    (2.0, 768, 1024, 1, 608),
    (4.0, 4096, 1024, 3, 1024),   # memory, not CPUs, bounds the runs
    (4.0, None, 1024, 4, 1024),
    (1.9, 8192, 512, 1, 512),
])
def test_sizing(cpus: float, memory: int | None, asked: int, jobs: int, per_run: int) -> None:
    sizing = size_run(Capacity(cpus, "test", memory, "test"), asked)
    assert (sizing.jobs, sizing.memory_mb) == (jobs, per_run)
    assert f"{jobs} parallel run" in sizing.reason
    if per_run < asked:
        assert f"the assignment asks {asked} MB per run" in sizing.reason


def test_jobs_option_caps_the_runs() -> None:
    assert size_run(Capacity(8, "test", None, "test"), 1024, max_jobs=2).jobs == 2
