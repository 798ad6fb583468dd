"""Gradescope as it runs: the built zip in a fake /autograder, inside a ½-CPU, 768 MB cgroup where this
machine allows one (root, cgroup v1 cpu and memory controllers, as here and in CI).

Each sample submission must get the same verdicts as a local `grade` run, the run must be sized to
the container (one parallel run, memory capped below the container's), and nothing a student sees
before release (the top-level output, the visible tests) may mention a hidden case or count it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import uuid
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.cli import entry
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded

CPU_V1 = Path("/sys/fs/cgroup/cpu")
MEMORY_V1 = Path("/sys/fs/cgroup/memory")


def _own_cgroup(controller: str) -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    return "/"


@contextlib.contextmanager
def half_cpu_768mb() -> Iterator[list[str] | None]:
    """An argv prefix that runs a command in a fresh ½-CPU, 768 MB cgroup (v1), or None where that is
    not possible here (not root, no v1 cpu/memory controllers, or they cannot be written)."""
    name = f"npuzzle-gradescope-test-{uuid.uuid4().hex[:8]}"
    cpu = CPU_V1 / _own_cgroup("cpu").lstrip("/") / name
    memory = MEMORY_V1 / _own_cgroup("memory").lstrip("/") / name
    if os.geteuid() != 0 or not (CPU_V1 / "cpu.cfs_quota_us").exists() or not (MEMORY_V1 / "cgroup.procs").exists():
        yield None
        return
    try:
        cpu.mkdir()
        memory.mkdir()
        (cpu / "cpu.cfs_period_us").write_text("100000")
        (cpu / "cpu.cfs_quota_us").write_text("50000")
        (memory / "memory.limit_in_bytes").write_text(str(768 * 1024 * 1024))
    except OSError:
        for folder in (cpu, memory):
            with contextlib.suppress(OSError):
                folder.rmdir()
        yield None
        return
    try:
        yield ["sh", "-c", f'echo $$ > "{cpu}/cgroup.procs" && echo $$ > "{memory}/cgroup.procs" && exec "$@"',
               "in-cgroup"]
    finally:
        for folder in (cpu, memory):
            with contextlib.suppress(OSError):
                folder.rmdir()


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    assert entry(["gradescope", "build", "--testcases", str(TESTSET), "--out", str(out)]) == 0
    return out


def _run_in_container(tmp_path: Path, autograder_zip: Path, submission: Path) -> tuple[dict, str, bool]:
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    shutil.copytree(submission, root / "submission")
    # The zip's own source is what runs (PYTHONPATH into it), as setup.sh would have installed it.
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable,
           "PYTHONPATH": str(root / "source" / "project")}
    with half_cpu_768mb() as prefix:
        done = subprocess.run([*(prefix or []), str(root / "run_autograder")], env=env, capture_output=True,
                              text=True, timeout=600, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text()), done.stdout, prefix is not None


@pytest.mark.slow
@pytest.mark.parametrize("name", ["correct", "suboptimal", "illegal-move", "compile-error"])
def test_the_zip_in_a_small_container_matches_a_local_run_and_hides_hidden_cases(
        name: str, graded: Graded, autograder_zip: Path, tmp_path: Path) -> None:
    results, stdout, in_cgroup = _run_in_container(tmp_path, autograder_zip, SUBMISSIONS / name)
    local = next(s for s in graded.document["submissions"] if s["id"] == name)
    visibility = {case["id"]: case["visibility"] for case in graded.document["cases"]}
    tests = {test["name"]: test for test in results["tests"][1:]}
    # The same verdicts and points as the local run, case by case.
    assert {cid: (t["output"].split(":")[0], t["score"]) for cid, t in tests.items()} == \
        {c["case"]: (c["verdict"], c["points"]) for c in local["cases"]}
    assert results["score"] == local["score"]
    # Each case keeps its own visibility; nothing visible names or counts a hidden case.
    assert {cid: t["visibility"] for cid, t in tests.items()} == visibility
    hidden = [cid for cid, shown in visibility.items() if shown != "visible"]
    visible_text = results["output"] + "".join(t["output"] + t["name"] for t in results["tests"]
                                               if t["visibility"] == "visible")
    assert hidden and not any(cid in visible_text for cid in hidden)
    shown = [c for c in local["cases"] if visibility[c["case"]] == "visible"]
    counts = Counter(c["verdict"] for c in shown)
    assert f"on {len(shown)} cases (" in results["output"]
    assert all(f"{n} {verdict}" in results["output"] for verdict, n in counts.items())
    assert f"{len(local['cases'])} cases" not in results["output"]
    assert results["stdout_visibility"] == "hidden"
    # Sized to the container, and it says so in the (staff-only) stdout.
    if in_cgroup:
        assert "gradescope: 0.5 CPU" in stdout and "-> 1 parallel run of 608 MB" in stdout, stdout
    else:
        assert "gradescope: " in stdout
