"""Issue 13's attack classes, each beside an innocent run at -j 2, with what the host keeps after.

For each attacker: its verdict-relevant Outcome; that an innocent run started while it is
in full swing gives a result byte-identical to the same run alone; and that nothing of it
is left in the host's process table, SysV IPC, shared temp folders, cgroups or keyrings.
Only ever run inside the fresh PID namespace that ``test_pid_namespace.py`` makes.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from grader.sandbox import cgroups, runner, slots, sweep, uids
from grader.sandbox.backends import bare
from tests.hostile.conftest import current_plan
from tests.hostile.test_hostile import HOSTILE, PYTHON, fresh_workdir, leftovers
from tests.support import REPO

INNOCENT = "well_behaved_forks"


def innocent(root: Path) -> tuple:
    """An innocent run's observable result: everything a verdict is made of."""
    workdir = fresh_workdir(root, INNOCENT)
    outcome = runner.run_command([PYTHON, "main.py"], workdir, runner.Limits(wall_seconds=20))
    return (outcome.exit_code, outcome.signal, outcome.timed_out, outcome.memory_exceeded, outcome.stdout,
            outcome.stderr, outcome.stdout_truncated, (workdir / "output.txt").read_bytes())


def beside(root: Path, program: str, limits: runner.Limits, args: tuple[str, ...] = (), settle: float = 1.0):
    """Run ``program`` and, once it is in full swing, an innocent run beside it (-j 2)."""
    alone = innocent(root)
    assert alone[0] == 0 and alone[-1] == b"sum = 39\n", alone
    token = f"npuzzle-hostile-{os.urandom(8).hex()}"
    workdir = fresh_workdir(root, program)
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("outcome", runner.run_command(
        [PYTHON, "main.py", *args, token], workdir, limits)))
    thread.start()
    time.sleep(settle)
    started = time.monotonic()
    during = innocent(root)
    box["innocent_seconds"] = time.monotonic() - started
    thread.join(timeout=120)
    assert not thread.is_alive(), "run_command did not return"
    assert during == alone, "the attacker changed an innocent neighbour's result"
    assert leftovers(token) == [], "processes of the run outlived it"
    assert_host_clean()
    return box["outcome"], workdir, box


def pool_uids() -> range:
    pool = current_plan().uid_pool
    return range(pool.base, pool.base + pool.size) if pool else range(0)


def owner_of(entry: os.DirEntry[str]) -> int | None:
    """The uid owning a listed entry; None when it is gone since the listing (other tests share /tmp)."""
    try:
        return entry.stat(follow_symlinks=False).st_uid
    except FileNotFoundError:
        return None


def assert_host_clean() -> None:
    """No process, SysV IPC object or shared temp file of a per-run uid; every slot cgroup empty."""
    owned = set(pool_uids())
    deadline = time.monotonic() + 2.0  # SIGKILLed processes take a moment to be gone
    while any(uids.processes_of(uid) for uid in owned) and time.monotonic() < deadline:
        time.sleep(0.05)
    for uid in owned:
        assert uids.processes_of(uid) == [], f"processes of uid {uid} are left"
    for kind in ("shm", "sem", "msg"):
        rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        header = Path(f"/proc/sysvipc/{kind}").read_text().split("\n")[0].split()
        left = [row for row in rows if int(dict(zip(header, row.split()))["uid"]) in owned]
        assert left == [], f"SysV {kind} objects are left: {left}"
    for folder in uids.SHARED_TEMP_DIRS:
        if os.path.isdir(folder):
            left = [e.name for e in os.scandir(folder) if owner_of(e) in owned]
            assert left == [], f"{folder} keeps {left}"
    for group in slots.pool()._made:
        assert group.pids() == [], f"{group.name} still holds processes"


def require_cgroups() -> cgroups.Hierarchy:
    hierarchy = current_plan().cgroups
    if hierarchy is None:
        reason = next(s.reason for s in current_plan().statuses if s.name == "cgroup")
        # CI fails only where the machine offers a writable cgroup tree the grader did not manage to use.
        if os.environ.get("CI") and os.geteuid() == 0 and os.access("/sys/fs/cgroup", os.W_OK):
            pytest.fail(f"cgroups are writable here but unused: {reason}")
        pytest.skip(f"no cgroups here: {reason}")
    return hierarchy


# ---------------------------------------------------------------- keyrings (items 3, 4)
def look_in_keyrings(uid: int) -> str:
    """What uid ``uid`` finds in its keyrings on the host, outside any sandbox."""
    done = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", PYTHON, "-I",
                           str(HOSTILE / "keyring_loot" / "main.py"), "--look"],
                          capture_output=True, cwd="/", timeout=30, check=False)
    return done.stdout.decode()


def test_a_later_run_of_the_same_uid_finds_nothing_in_its_keyrings(mode, root, monkeypatch):
    plan = current_plan()
    if plan.uid_pool is None:
        pytest.skip("per-run uids need root")
    monkeypatch.setattr(plan.uid_pool, "size", 1)  # every run gets the same uid: the hardest case
    # Start from empty host keyrings (an earlier process may have used this uid): the reaper shim clears them.
    subprocess.run([sys.executable, "-I", "-S", str(bare.REAPER), str(plan.uid_pool.base), "-", "--", "/bin/true"],
                   check=True, cwd="/", timeout=30)
    assert look_in_keyrings(plan.uid_pool.base) == "EMPTY\n"
    limits = runner.Limits(wall_seconds=10)
    first, workdir, _ = beside(root, "keyring_loot", limits, settle=0.0)
    assert first.exit_code == 0 and (workdir / "output.txt").read_text() == "stored\n", first
    second_dir = fresh_workdir(root, "keyring_loot")
    (second_dir / "input.txt").write_text("another case\n")
    second = runner.run_command([PYTHON, "main.py"], second_dir, limits)
    assert second.stdout == b"EMPTY\n", second.stdout  # the first run's input is not there
    assert look_in_keyrings(plan.uid_pool.base) == "EMPTY\n"  # nor on the host, after both


# ---------------------------------------------------------------- process slots (item 4)
def test_a_process_slot_hog_cannot_starve_its_neighbour(mode, root):
    outcome, _, _ = beside(root, "process_hog", runner.Limits(wall_seconds=4.0, memory_mb=256), settle=2.0)
    assert outcome.timed_out and outcome.stdout.startswith(b"fork failed after "), outcome
    if current_plan().cgroups is not None:
        assert outcome.process_limit_hit  # what a JVM that cannot start a thread is told instead of memory_mb


# ---------------------------------------------------------------- memory the rlimits miss (item 5)
@pytest.mark.parametrize("kind", ["memfd", "shm"])
def test_memory_held_in_memfd_or_shm_is_memory_exceeded(mode, root, kind):
    require_cgroups()
    limits = runner.Limits(wall_seconds=20.0, memory_mb=256)
    outcome, workdir, _ = beside(root, "shm_memfd_hog", limits, args=(kind, "700"), settle=0.5)
    assert outcome.memory_exceeded and not outcome.timed_out, outcome
    assert not (workdir / "output.txt").exists()  # it never got to say it held 700 MB
    assert outcome.memory_peak_bytes <= runner.memory_limit_bytes(limits, ["python"])


# ---------------------------------------------------------------- disk behind stdout (item 6)
def test_fallocate_on_stdin_stdout_stderr_reserves_nothing(mode, root):
    free_before = shutil.disk_usage("/tmp").free
    outcome, workdir, _ = beside(root, "fallocate_output", runner.Limits(wall_seconds=10.0), settle=0.0)
    assert outcome.exit_code == 0, outcome
    assert b"RESERVED" not in outcome.stdout and outcome.stdout.count(b"refused") == 3, outcome.stdout
    assert shutil.disk_usage("/tmp").free > free_before - 2**29  # nowhere near the 3 GB asked for


# ---------------------------------------------------------------- CPU of the whole run (item 7)
def test_spinners_in_their_own_sessions_stop_at_the_cpu_limit(mode, root):
    require_cgroups()
    limits = runner.Limits(wall_seconds=30.0, cpu_seconds=2.0, memory_mb=256)
    outcome, _, box = beside(root, "session_spinners", limits, settle=0.2)
    assert outcome.timed_out, outcome
    # All 200 together: killed within a check period or two of the limit, not at 20 s.
    assert outcome.cpu_seconds < limits.cpu_seconds + runner.CPU_GRACE_SECONDS + 1.0, outcome.cpu_seconds
    assert outcome.wall_seconds < limits.wall_seconds - 5, outcome.wall_seconds  # stopped by CPU, not the wall clock
    print(f"spinners: {outcome.cpu_seconds:.2f} CPU-s in {outcome.wall_seconds:.2f} s; innocent beside them "
          f"took {box['innocent_seconds']:.2f} s")


# ---------------------------------------------------------------- kill -9 of the grader (item 15)
def test_a_killed_graders_temp_folder_and_cgroups_are_swept_at_the_next_start(root, tmp_path):
    submissions = tmp_path / "submissions"
    (submissions / "sleepy").mkdir(parents=True)
    (submissions / "sleepy" / "main.py").write_text("import time\ntime.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    grader = subprocess.Popen([sys.executable, "-m", "grader.cli", str(submissions), "--out",
                               str(tmp_path / "out"), "--testcases", str(REPO / "testcases" / "cmpe160")],
                              env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tag = f"{sweep.pid_namespace()}.{grader.pid}."
    temp_prefix = f"{sweep.TEMP_PREFIX}{tag}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _running_sleeper(grader.pid):
        time.sleep(0.2)
    assert _running_sleeper(grader.pid), "the grader never started the submission"
    folders = [p for p in Path("/tmp").iterdir() if p.name.startswith(temp_prefix)]
    hierarchy = current_plan().cgroups
    groups = _groups(hierarchy, tag)
    os.kill(grader.pid, signal.SIGKILL)
    grader.wait()
    assert folders and all(p.exists() for p in folders)  # kill -9 ran no cleanup
    assert hierarchy is None or groups
    doctor = subprocess.run([sys.executable, "-m", "grader.cli", "doctor", "--no-measure"], env=env, cwd=tmp_path,
                            capture_output=True, timeout=120, check=False)
    assert doctor.returncode == 0, doctor.stderr
    assert not any(p.exists() for p in folders), doctor.stdout
    assert _groups(hierarchy, tag) == []
    assert b"sweep: removed" in doctor.stdout
    time.sleep(0.5)  # the sandbox dies with its grader (bwrap --die-with-parent, the reaper's parent-death signal)
    assert_host_clean()


def _running_sleeper(grader_pid: int) -> bool:
    """Whether the sleepy submission runs (as a uid of its own, so not as root)."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if Path(f"/proc/{name}/cmdline").read_bytes().endswith(b"main.py\0") and \
                        os.stat(f"/proc/{name}").st_uid != 0:
                    return True
            except OSError:
                continue
    return False


def _groups(hierarchy: cgroups.Hierarchy | None, tag: str) -> list[Path]:
    if hierarchy is None:
        return []
    return [p / e for p in set(hierarchy.parents.values()) for e in os.listdir(p)
            if e.startswith(cgroups.PREFIX + tag)]


# ---------------------------------------------------------------- the whole grader at -j 2
INNOCENTS = ("AC-python-correct", "SUB-python-suboptimal", "AC-java-princeton-padded")
ATTACKERS = ("process_hog", "session_spinners", "keyring_loot")
TIMINGS = {"seconds", "cpu_seconds"}


def start_grading(submissions: Path, out: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "grader.cli", str(submissions), "--out", str(out), "-j", "2",
                             "--testcases", str(REPO / "testcases" / "cmpe160"), "--cases", "3x3-rand-0[12]",
                             "--time-limit", "4"], env=env, cwd=out.parent, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def results_of(grading: subprocess.Popen, out: Path) -> dict:
    """Each submission's case results from results.json, without the timings."""
    _, stderr = grading.communicate(timeout=600)
    assert grading.returncode == 0, stderr.decode(errors="replace")[-3000:]
    results = json.loads((out / "results.json").read_text())
    return {s["id"]: [{k: v for k, v in case.items() if k not in TIMINGS} for case in s["cases"]]
            for s in results["submissions"]}


def test_innocent_results_are_the_same_beside_attackers_and_another_grader(tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed (the JVM beside a process-slot hog is the original attack)")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    folders = {name: tmp_path / name for name in ("alone", "again", "crowded")}
    for name in INNOCENTS:
        for target in folders.values():
            shutil.copytree(REPO / "examples" / "submissions" / name, target / name)
    for name in ATTACKERS:
        shutil.copytree(HOSTILE / name, folders["crowded"] / f"zz-{name}")
    outs = {name: tmp_path / f"out-{name}" for name in folders}
    baseline = results_of(start_grading(folders["alone"], outs["alone"], env), outs["alone"])
    # The attackers' grader at -j 2, and a second grader beside it on the same machine.
    crowded = start_grading(folders["crowded"], outs["crowded"], env)
    again = start_grading(folders["again"], outs["again"], env)
    beside_attackers, beside_grader = results_of(crowded, outs["crowded"]), results_of(again, outs["again"])
    for name in INNOCENTS:
        assert beside_attackers[name] == baseline[name], name
        assert beside_grader[name] == baseline[name], name
    assert {c["verdict"] for c in beside_attackers["zz-process_hog"]} == {"TLE"}
    assert {c["verdict"] for c in beside_attackers["zz-session_spinners"]} == {"TLE"}
    assert all(c["verdict"] != "JE" for cases in beside_attackers.values() for c in cases)
    assert_host_clean()


# ---------------------------------------------------------------- permissions alone, without bwrap (item 16)
def test_without_bwrap_permissions_keep_the_test_set_and_other_workdirs_unreadable(mode, root):
    if mode.startswith("bwrap"):
        pytest.skip("bwrap hides the host's files anyway (test_hostile covers that)")
    if current_plan().uid_pool is None:
        pytest.skip("per-run uids need root")
    # As the pipeline lays them out: the grader's folders 0711, another run's workdir 0700 and root's,
    # the test set where the grader keeps it (0700 here, and grade warns when it is not).
    runs = root / "runs"
    runs.mkdir(mode=0o711)
    runs.chmod(0o711)
    neighbour = runs / "00002-bob-case-x"
    neighbour.mkdir(mode=0o700)
    (neighbour / "Solver.java").write_text("class Solver { /* bob's work */ }")
    testset = root / "testset"
    testset.mkdir(mode=0o700)
    (testset / "manifest.json").write_text('{"secret": "the-optimal-moves-are-42"}')
    for path in (neighbour / "Solver.java", testset / "manifest.json"):
        path.chmod(0o644)  # readable by all, as a copy of a student's file is: only the folder keeps it in
    outcome, _, _ = beside(root, "read_secret", runner.Limits(wall_seconds=10),
                           args=(str(testset / "manifest.json"), str(neighbour / "Solver.java")), settle=0.0)
    assert b"READ" not in outcome.stdout, outcome.stdout
    # Under unshare a folder below /tmp is not even there (the run's /tmp is its own tmpfs).
    denial = b"Permission denied" if mode == "reaper" or not str(root).startswith("/tmp/") else b"No such file"
    for secret in (testset / "manifest.json", neighbour / "Solver.java"):
        assert f"DENIED {secret}: ".encode() + denial in outcome.stdout, outcome.stdout
    assert runner.warn_if_exposed([testset]) == []
    testset.chmod(0o755)
    with pytest.warns(Warning, match="without bwrap a submission can read this"):
        assert runner.warn_if_exposed([testset])
