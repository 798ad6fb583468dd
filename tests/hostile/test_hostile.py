"""Hostile submissions, each run through ``run_command`` under every isolation layer this machine has.

Each case asserts the Outcome the grader turns into a verdict (TLE, MLE, output limit,
run-time error), that nothing of the run outlives it, and that a well-behaved sibling
run before, during and after it gives the same result.

SAFETY: kill(-1) and the parent-signalling case only run inside a PID namespace or under
the reaper shim as another uid (the program itself refuses otherwise); the fork storm is
bounded (500) and runs under RLIMIT_NPROC or in a PID namespace.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from grader.sandbox import runner
from grader.sandbox.backends import base
from tests.hostile.conftest import current_plan
from tests.support import require_tool

HOSTILE = Path(__file__).resolve().parent
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
SHORT = runner.Limits(wall_seconds=2.0, memory_mb=256, output_bytes=100_000, file_size_bytes=2_000_000)

@pytest.fixture
def namespaced(mode) -> str:
    """Only the modes with namespaces (no network, a private view)."""
    if mode == "reaper":
        pytest.skip("needs a PID/network namespace")
    return mode


@pytest.fixture
def private_view(mode) -> str:
    """Only bwrap hides the host's files."""
    if not mode.startswith("bwrap"):
        pytest.skip("only bwrap hides the host's files")
    return mode


def fresh_workdir(root: Path, program: str) -> Path:
    workdir = root / f"{program}-{uuid.uuid4().hex[:8]}"
    shutil.copytree(HOSTILE / program, workdir)
    (workdir / "input.txt").write_text("3\n1 2 3\n4 5 6\n7 8 0\n", encoding="utf-8")
    return workdir


def sibling(root: Path) -> tuple:
    """A well-behaved run's observable result."""
    workdir = fresh_workdir(root, "well_behaved")
    outcome = runner.run_command([PYTHON, "main.py"], workdir, runner.Limits(wall_seconds=10))
    return (outcome.exit_code, outcome.signal, outcome.timed_out, outcome.memory_exceeded, outcome.stdout,
            outcome.stdout_truncated, (workdir / "output.txt").read_text(encoding="utf-8"))


def leftovers(token: str) -> list[int]:
    """Processes whose command line carries the run's token."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            except OSError:
                continue
            if token.encode() in cmdline and int(name) != os.getpid():
                found.append(int(name))
    return found


def contained(root: Path, program: str, limits: runner.Limits = SHORT, args: tuple[str, ...] = ()):
    """Run ``program`` with a sibling before, during and after it; return its Outcome and workdir."""
    before = sibling(root)
    token = f"npuzzle-hostile-{uuid.uuid4().hex}"
    workdir = fresh_workdir(root, program)
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("outcome", runner.run_command(
        [PYTHON, "main.py", *args, token], workdir, limits)))
    thread.start()
    during = sibling(root)
    thread.join(timeout=60)
    assert not thread.is_alive(), "run_command did not return"
    after = sibling(root)
    assert before == during == after
    assert before[0] == 0 and before[-1] == "sum = 39\n"
    time.sleep(0.1)
    assert leftovers(token) == [], "processes of the run outlived it"
    return box["outcome"], workdir


def test_a_forged_shim_failure_is_the_programs_own_exit(mode, root):
    """The shims' failure words and exit code, printed by the program: its run-time error, not a grader fault
    (only a message carrying the run's secret token is the shims', grader.sandbox.limits.SHIM_FAULT)."""
    outcome, _ = contained(root, "shim_forgery")
    assert (outcome.exit_code, outcome.timed_out, outcome.memory_exceeded) == (125, False, False), outcome
    assert outcome.stderr.startswith(b"grader sandbox: cannot join the run cgroup\n"), outcome


def test_cpu_loop_times_out(mode, root):
    limits = runner.Limits(wall_seconds=6.0, cpu_seconds=1.0, memory_mb=256)
    outcome, _ = contained(root, "cpu_loop", limits)
    assert outcome.timed_out and outcome.exit_code is None and outcome.signal == signal.SIGXCPU
    assert 0.7 <= outcome.cpu_seconds < 1.5 and outcome.wall_seconds < 6.0


def test_sleep_loop_times_out_on_the_wall_clock_and_keeps_its_output(mode, root):
    outcome, workdir = contained(root, "sleep_loop", runner.Limits(wall_seconds=1.0, memory_mb=256))
    assert outcome.timed_out and outcome.signal == signal.SIGKILL
    assert 1.0 <= outcome.wall_seconds < 2.5 and outcome.cpu_seconds < 0.5
    # What it wrote before the limit is part of the verdict's message (even from a capped workdir).
    assert (workdir / "output.txt").read_text(encoding="utf-8") == "Minimum number of moves = 4\n"


def test_memory_bomb_is_memory_exceeded(mode, root):
    outcome, _ = contained(root, "memory_bomb")
    assert outcome.memory_exceeded and not outcome.timed_out
    assert outcome.exit_code == 1 and b"MemoryError" in outcome.stderr


def test_printed_out_of_memory_text_is_not_memory_exceeded(mode, root):
    # Every runtime's out-of-memory wording, printed by a program that holds a few MB: the grader
    # measured no exhaustion, so the failure stays the program's own, with a note saying why.
    outcome, _ = contained(root, "oom_text")
    assert not outcome.memory_exceeded and outcome.exit_code == 1, outcome
    assert outcome.grader_note.startswith("the program said it ran out of memory, but")


def test_fork_storm_leaves_nothing_behind(mode, root):
    outcome, _ = contained(root, "fork_storm", runner.Limits(wall_seconds=10.0, memory_mb=256))
    assert outcome.exit_code == 0 and not outcome.timed_out
    assert outcome.stdout.startswith(b"started ")


def test_stdout_flood_is_cut_at_the_cap(mode, root):
    outcome, _ = contained(root, "stdout_flood", runner.Limits(wall_seconds=5.0, output_bytes=100_000))
    assert outcome.stdout_truncated and outcome.stderr_truncated
    assert len(outcome.stdout) == 100_000 and len(outcome.stderr) == 100_000
    assert not outcome.timed_out


def test_huge_file_stops_at_the_file_size_limit(mode, root):
    outcome, workdir = contained(root, "huge_file")
    assert outcome.exit_code != 0 or outcome.signal == signal.SIGXFSZ
    assert (workdir / "huge.bin").stat().st_size <= SHORT.file_size_bytes
    assert b"File too large" in outcome.stderr or outcome.signal == signal.SIGXFSZ


def test_thousands_of_files_stay_in_the_workdir(root):
    # Slow on this disk (~3 ms a file) and the same under every layer: run under the default one.
    outcome, workdir = contained(root, "many_files", runner.Limits(wall_seconds=20.0))
    assert outcome.exit_code == 0 and outcome.stdout == b"2000\n"
    assert len(list((workdir / "junk").iterdir())) == 2000


def test_filling_the_disk_stops_at_the_workdir_quota(mode, root):
    if not current_plan().workdir_tmpfs:
        pytest.skip("the workdir's tmpfs needs root")
    outcome, workdir = contained(root, "fill_disk")
    assert outcome.exit_code == 1 and b"No space left on device" in outcome.stdout, outcome
    used = sum(path.stat().st_size for path in workdir.rglob("*") if path.is_file())
    assert used <= runner.WORKDIR_ROOM_BYTES + 2 * SHORT.file_size_bytes


def test_shared_temp_folders_are_private_and_capped(namespaced, root):
    marker = f"npuzzle-hostile-{uuid.uuid4().hex[:8]}"
    outcome, _ = contained(root, "fill_tmp", args=(marker,), limits=runner.Limits(wall_seconds=20.0, memory_mb=256))
    lines = dict(line.split(": ", 1) for line in outcome.stdout.decode().splitlines())
    assert lines["/tmp"].endswith("No space left on device"), outcome
    for folder, line in lines.items():  # capped at the private tmpfs size, or not there at all (bwrap)
        full = line.endswith("No space left on device")
        assert full or line.endswith(("No such file or directory", "Permission denied")), (folder, line)
        assert int(line.split("after ")[1].split(" MB")[0]) <= (base.TMP_SIZE_BYTES >> 20 if full else 0), line
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        assert not list(Path(folder).glob(f"{marker}*")), f"the run left files in the host's {folder}"


def test_secrets_outside_the_workdir_are_invisible(private_view, root):
    answers = root / "answers"
    answers.mkdir()
    manifest = answers / "manifest.json"
    manifest.write_text('{"secret": "the-optimal-moves-are-42"}', encoding="utf-8")
    other = fresh_workdir(root, "well_behaved")
    (other / "Solver.java").write_text("class Solver { /* another student's work */ }", encoding="utf-8")
    # World-readable on purpose: only the sandbox's view protects them, not permissions.
    for path in (root, answers, other):
        path.chmod(0o755)
    manifest.chmod(0o644)
    outcome, _ = contained(root, "read_secret", args=(str(manifest), str(other / "Solver.java")))
    assert b"the-optimal-moves" not in outcome.stdout and b"another student" not in outcome.stdout
    assert outcome.stdout.startswith(f"DENIED {manifest}: No such file".encode())
    assert f"DENIED {other / 'Solver.java'}: No such file".encode() in outcome.stdout


def test_no_network(namespaced, root):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.2)
        outcome, _ = contained(root, "network", args=(str(listener.getsockname()[1]),))
        with pytest.raises(socket.timeout):
            listener.accept()
    assert outcome.stdout.startswith(b"BLOCKED"), outcome.stdout


def test_setsid_daemon_does_not_outlive_the_run(mode, root):
    outcome, workdir = contained(root, "setsid_daemon", args=("marker",))
    assert outcome.exit_code == 0 and outcome.stdout == b"daemon started\n"
    marker = workdir / "marker"
    assert marker.exists(), "the daemon never ran"
    size = marker.stat().st_size
    time.sleep(0.5)
    assert marker.stat().st_size == size, "the daemon is still writing"


def test_signals_to_the_parent_reach_only_the_sandbox(mode, root):
    if mode == "reaper" and current_plan().drop_uid is None:
        pytest.skip("without a PID namespace or a uid drop the parent it reaches is the grader's shim as the same user")
    outcome, _ = contained(root, "signals_parent", args=(os.readlink("/proc/self/ns/pid"),))
    assert outcome.exit_code == 0, outcome
    assert outcome.stdout.endswith(b"still running\n"), outcome.stdout
    assert b"REFUSED" not in outcome.stdout
    if mode == "reaper":  # the shim runs as root, the submission as nobody
        assert b"could not signal my parent (the reaper): Operation not permitted" in outcome.stdout


def test_files_outside_the_workdir_survive(private_view, root):
    victim_dir = root / "other-submission"
    victim_dir.mkdir()
    victim = victim_dir / "Solver.java"
    victim.write_text("class Solver {}", encoding="utf-8")
    for path in (root, victim_dir):
        path.chmod(0o777)  # only the sandbox's view protects it
    victim.chmod(0o666)
    outcome, _ = contained(root, "delete_outside", args=(str(victim), str(victim_dir)))
    assert victim.read_text(encoding="utf-8") == "class Solver {}"
    assert b"DELETED" not in outcome.stdout


@pytest.mark.java
def test_java_memory_bomb_is_memory_exceeded(mode, root):
    javac, java = require_tool("javac"), require_tool("java")
    workdir = fresh_workdir(root, "java_memory_bomb")
    build = runner.run_command([javac, "-J-Xmx256m", "Main.java"], workdir,
                               runner.Limits(wall_seconds=60, memory_mb=1024, jvm=True))
    assert build.exit_code == 0, build.stderr
    # As the grader runs Java: -Xmx is the memory limit, and a deep-recursion stack size.
    outcome = runner.run_command([java, "-Xmx128m", "-Xss64m", "-XX:+UseSerialGC", "-cp", ".", "Main"], workdir,
                                 runner.Limits(wall_seconds=10, memory_mb=128, jvm=True))
    assert outcome.memory_exceeded and not outcome.timed_out
    assert outcome.exit_code == 1 and b"java.lang.OutOfMemoryError: Java heap space" in outcome.stderr
