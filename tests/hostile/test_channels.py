"""Issue 29's sandbox classes: channels between concurrent runs (file locks), what a run can learn
of its case and student, the system calls a solver never needs, and the copy back from a run's tmpfs.

Each attack runs beside a well-behaved run or submission, whose result must be byte-identical to
the same run alone; the attacker gets its own verdict. Where a layer is what stops an attack, a
second test switches that layer off and shows the attack then works (so the first cannot pass
for want of teeth). Only ever run inside the fresh PID namespace that ``test_pid_namespace.py`` makes.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from grader import pipeline
from grader.sandbox import backends, isolation, runner
from grader.sandbox.folders import copyback
from grader.sandbox.folders import workdir as workdirs
from tests.hostile.conftest import current_plan
from tests.hostile.test_containment import innocent
from tests.hostile.test_hostile import HOSTILE, PYTHON, fresh_workdir
from tests.support import REPO

TESTSET = REPO / "testcases" / "cmpe160"
CASES = ["3x3-rand-0[1-4]"]  # 01 and 04 visible, 02 and 03 hidden
INNOCENT_SUBMISSION = REPO / "examples" / "submissions" / "AC-python-correct"
TIMINGS = {"seconds", "cpu_seconds"}


def with_filter() -> isolation.Plan:
    plan = current_plan()
    if plan.seccomp is None:
        why = next(s.reason for s in plan.statuses if s.name == "seccomp")
        pytest.skip(f"no seccomp filter on this machine: {why}")
    return plan


def without_filter(monkeypatch) -> None:
    """bwrap with every layer but the filter: what the attacks get without it."""
    monkeypatch.setenv(isolation.DISABLE_ENV, "seccomp")
    if current_plan().backend is not backends.BUBBLEWRAP:
        pytest.skip("bwrap is not available here")


def run(root: Path, program: str, args: tuple[str, ...] = (), board: str | None = None,
        limits: runner.Limits = runner.Limits(wall_seconds=20), keep=(".",)) -> tuple[runner.Outcome, Path]:
    workdir = fresh_workdir(root, program)
    if board is not None:
        (workdir / "input.txt").write_text(board, encoding="ascii")
    return runner.run_command([PYTHON, "main.py", *args], workdir, limits, keep=keep), workdir


def beside_innocent(root: Path, attack) -> object:
    """``attack()`` in a thread, an innocent run while it runs; the innocent's result must not change."""
    alone = innocent(root)
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("result", attack()))
    thread.start()
    time.sleep(0.3)
    during = innocent(root)
    thread.join(timeout=120)
    assert not thread.is_alive(), "the attack did not return"
    assert during == alone, "the attacker changed an innocent neighbour's result"
    return box["result"]


# ---------------------------------------------------------------- system calls (items 1b, 10)
REFUSED = ("io_uring_setup", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key", "ptrace",
           "unshare", "unshare-uts", "setns", "mount", "inotify_init1", "cachestat", "process_vm_readv", "flock",
           "F_SETLK", "F_GETLK", "F_OFD_SETLK", "F_OFD_GETLK", "F_SETLEASE", "F_NOTIFY", "preadv2-nowait")


def probe_lines(outcome: runner.Outcome) -> dict[str, str]:
    assert outcome.exit_code == 0, outcome
    return dict(line.split(" ", 1) for line in outcome.stdout.decode().splitlines())


def test_calls_a_solver_never_needs_are_refused(mode, root):
    with_filter()
    outcome, _ = beside_innocent(root, lambda: run(root, "syscall_probe"))
    assert outcome.exit_code == 0, outcome
    got = probe_lines(outcome)
    assert {name: got[name] for name in REFUSED} == {name: "EPERM" for name in REFUSED}
    # clone3's flags are out of the filter's sight: ENOSYS, so the C library falls back to clone.
    assert got["clone3"] == "ENOSYS"
    assert (got["fork"], got["F_GETFL"]) == ("7", "OK"), "what a solver needs must still work"


def test_without_the_filter_the_probe_sees_the_calls_allowed(monkeypatch, root):
    without_filter(monkeypatch)
    outcome, _ = run(root, "syscall_probe")
    got = probe_lines(outcome)
    # These succeed with no filter (no host setting refuses them): the probe can tell allowed from refused.
    assert {got[name] for name in ("unshare", "flock", "F_SETLK", "F_GETLK", "inotify_init1")} == {"OK"}, got


# ---------------------------------------------------------------- a lock channel between two runs (item 1)
HIDDEN_BOARD = "3\n8 1 3\n4 0 2\n7 6 5\n"
VISIBLE_BOARD = "3\n1 2 3\n4 5 6\n7 8 0\n"
LEAKED = b"LEAK 8-1-3-4-0-2-7-6-5"


def publisher_and_reader(root: Path) -> tuple[runner.Outcome, runner.Outcome]:
    """A run holding a 'hidden' board, and a 'visible' run started while it publishes (-j 2)."""
    box: dict = {}
    hidden = threading.Thread(target=lambda: box.setdefault("hidden", run(root, "lock_channel", board=HIDDEN_BOARD)))
    hidden.start()
    time.sleep(0.5)
    visible, _ = run(root, "lock_channel", board=VISIBLE_BOARD)
    hidden.join(timeout=60)
    return box["hidden"][0], visible


def test_two_concurrent_runs_cannot_talk_through_file_locks(mode, root):
    with_filter()
    hidden, visible = publisher_and_reader(root)
    assert LEAKED not in visible.stderr and b"LEAK" not in hidden.stderr
    assert b"REFUSED flock EPERM" in visible.stdout and b"REFUSED flock EPERM" in hidden.stdout
    assert (hidden.exit_code, visible.exit_code) == (0, 0)


def test_without_the_filter_the_lock_channel_carries_the_board(monkeypatch, root):
    without_filter(monkeypatch)
    _, visible = publisher_and_reader(root)
    assert LEAKED in visible.stderr, visible


# ---------------------------------------------------------------- the whole pipeline (items 1a, 2)
@dataclasses.dataclass
class Seen:
    board: str
    start: float
    end: float
    stdout: bytes


def watch_runs(monkeypatch) -> list[Seen]:
    """Every case run the pipeline starts: its input board, when it ran and what it printed."""
    seen: list[Seen] = []
    lock = threading.Lock()
    real = runner.run_command

    def recording(argv, workdir, limits, **kwargs):
        source = Path(workdir) / "input.txt"
        board = " ".join(source.read_text().split()) if source.is_file() else ""
        start = time.monotonic()
        outcome = real(argv, workdir, limits, **kwargs)
        with lock:
            seen.append(Seen(board, start, time.monotonic(), outcome.stdout + outcome.stderr))
        return outcome

    monkeypatch.setattr(runner, "run_command", recording)
    return seen


def boards(visibility: str) -> set[str]:
    from grader.testsets.model import load_testset, select_cases
    chosen = select_cases(load_testset(TESTSET), CASES).cases
    return {" ".join(c.input_path.read_text().split()) for c in chosen if c.visibility == visibility}


def grade_class(tmp_path: Path, name: str, attackers: dict[str, Path], jobs: int,
                assignment: Path | None = None) -> dict[str, list[dict]]:
    submissions = tmp_path / name
    shutil.copytree(INNOCENT_SUBMISSION, submissions / "innocent")
    for student, program in attackers.items():
        shutil.copytree(program, submissions / student)
    results = pipeline.grade(submissions, TESTSET, None, jobs=jobs, cases=CASES, time_limit=4,
                             assignment_path=assignment)
    return {s.id: [{k: v for k, v in dataclasses.asdict(c).items() if k not in TIMINGS} for c in s.cases]
            for s in results.submissions}


def assert_no_hidden_board_in_visible_runs(seen: list[Seen]) -> None:
    hidden, visible = boards("hidden"), boards("visible")
    hidden_leaks = {b"LEAK " + "-".join(board.split()[1:]).encode() for board in hidden}
    visible_runs = [run for run in seen if run.board in visible]
    assert visible_runs and all(leak not in run.stdout for run in visible_runs for leak in hidden_leaks)
    # And the schedule itself: no run of a hidden case overlapped any run a student sees.
    last_visible = max(run.end for run in seen if run.board not in hidden)
    assert all(run.start >= last_visible for run in seen if run.board in hidden)


@pytest.mark.parametrize("jobs", [2, 4])
def test_a_hidden_case_never_reaches_a_visible_run_through_locks(jobs, tmp_path, monkeypatch):
    with_filter()
    baseline = grade_class(tmp_path, "alone", {}, jobs)
    seen = watch_runs(monkeypatch)
    graded = grade_class(tmp_path, "crowded", {"mallory": HOSTILE / "lock_channel",
                                               "trudy": HOSTILE / "lock_channel"}, jobs)
    assert graded["innocent"] == baseline["innocent"]
    assert_no_hidden_board_in_visible_runs(seen)
    for student in ("mallory", "trudy"):  # its own verdict: the unreadable answer it always writes
        assert {case["verdict"].value for case in graded[student]} == {"PE"}, graded[student]


def test_a_second_grader_on_the_machine_gets_no_hidden_board_either(tmp_path, monkeypatch):
    """Two graders at once, each with lock-channel attackers: the schedule is per grader, so across
    them it is the filter alone that keeps a hidden board out of the other grader's visible feedback."""
    with_filter()
    other = tmp_path / "other"
    for student in ("eve", "oscar"):
        shutil.copytree(HOSTILE / "lock_channel", other / student)
    second = subprocess.Popen([sys.executable, "-m", "grader.cli", str(other), "--testcases", str(TESTSET),
                               "--cases", CASES[0], "--time-limit", "4", "-j", "2", "--out", str(tmp_path / "out"),
                               "--no-progress"], env=dict(os.environ, PYTHONPATH=str(REPO)),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen = watch_runs(monkeypatch)
    grade_class(tmp_path, "crowded", {"mallory": HOSTILE / "lock_channel"}, 2)
    _, err = second.communicate(timeout=600)
    assert second.returncode == 0, err.decode(errors="replace")[-2000:]
    assert_no_hidden_board_in_visible_runs(seen)
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    visible_feedback = json.dumps([case for s in results["submissions"] for case in s["cases"]
                                   if case.get("visibility", "visible") == "visible"])  # left out if so
    assert "LEAK" not in visible_feedback and "REFUSED" not in visible_feedback  # REFUSED went to stdout
    assert all(case["verdict"] == "PE" for s in results["submissions"] for case in s["cases"])


def test_without_the_filter_the_schedule_alone_keeps_hidden_boards_out(tmp_path, monkeypatch):
    without_filter(monkeypatch)
    seen = watch_runs(monkeypatch)
    grade_class(tmp_path, "crowded", {"mallory": HOSTILE / "lock_channel", "trudy": HOSTILE / "lock_channel"}, 4)
    assert_no_hidden_board_in_visible_runs(seen)


@pytest.mark.parametrize("io", ["files", "argv"])
def test_no_run_can_read_its_case_or_its_student(mode, io, tmp_path, monkeypatch):
    # Under argv the input file's name is on the command line and in the folder: it must name no case.
    config = tmp_path / "assignment.toml"
    config.write_text((TESTSET / "assignment.toml").read_text(encoding="utf-8").replace(
        'io = "files"', f'io = "{io}"'), encoding="utf-8")
    baseline = grade_class(tmp_path, "alone", {}, 2, config)
    seen = watch_runs(monkeypatch)
    student = "student-snoopy-0451"
    graded = grade_class(tmp_path, "class", {student: HOSTILE / "path_snoop"}, 2, config)
    assert graded["innocent"] == baseline["innocent"]
    case_ids = [case["case"] for case in graded[student]]
    assert len(case_ids) == 4 and all(case["verdict"].value == "PE" for case in graded[student])
    snooped = [run for run in seen if b"mountinfo" in run.stdout or b"cwd " in run.stdout]
    assert len(snooped) == 4
    for run in snooped:
        for secret in [student, "snoopy", *case_ids, "rand-0"]:
            assert secret.encode() not in run.stdout, f"a run can read {secret!r}"
    if mode.startswith("bwrap"):
        assert all(b"cwd /run/box\n" in run.stdout and b"env HOME /run/box\n" in run.stdout for run in snooped)


# ---------------------------------------------------------------- the copy back (item 3)
LIMITS = runner.Limits(wall_seconds=30, file_size_bytes=16 * 2**20)


def measure_copy_back(monkeypatch) -> dict[str, int]:
    """What the copy back really writes to the host: data bytes (pwrite) and entries made."""
    written = {"data": 0, "entries": 0}
    real_range, real_entry = copyback._copy_range, copyback._Copier.entry

    def attacker() -> bool:  # the attack runs on a thread of its own, the innocent on the main one
        return threading.current_thread() is not threading.main_thread()

    def counted_range(source, target, start, end):
        written["data"] += (end - start) * attacker()
        real_range(source, target, start, end)

    def counted_entry(self, src_dir, name, dst_dir, dst_path):
        before = self.left
        real_entry(self, src_dir, name, dst_dir, dst_path)
        written["entries"] += (before != self.left) * attacker()
    monkeypatch.setattr(copyback, "_copy_range", counted_range)
    monkeypatch.setattr(copyback._Copier, "entry", counted_entry)
    return written


def host_cost(folder: Path) -> int:
    """The disk a folder takes on the host: allocated blocks of each inode once, a page per entry."""
    inodes, entries = {}, 0
    for path in folder.rglob("*"):
        info = path.lstat()
        inodes[info.st_ino] = info.st_blocks * 512
        entries += 1
    return sum(inodes.values()) + entries * copyback.ENTRY_BYTES


@pytest.fixture
def tmpfs_workdir(mode):
    if not current_plan().workdir_tmpfs:
        pytest.skip("a run's tmpfs needs root")
    return mode


def quota(root: Path, program: str) -> int:
    return workdirs.quota_bytes(fresh_workdir(root, program), LIMITS)


def test_only_the_answer_comes_back_and_its_holes_stay_holes(tmpfs_workdir, root, monkeypatch):
    written = measure_copy_back(monkeypatch)
    outcome, workdir = beside_innocent(root, lambda: run(root, "disk_amplifier", ("sparse,links,many",),
                                                         limits=LIMITS, keep=("output.txt",)))
    assert outcome.exit_code == 0 and outcome.stderr == b"", outcome
    answer = (workdir / "output.txt").stat()
    assert answer.st_size == 12 * 2**20 and answer.st_blocks * 512 <= 8192
    assert sorted(p.name for p in workdir.iterdir() if p.name in ("hole", "linked", "many")) == []
    assert written["data"] <= 4096 and written["entries"] == 1


def test_everything_back_keeps_links_and_holes_within_the_run_quota(tmpfs_workdir, root, monkeypatch):
    written = measure_copy_back(monkeypatch)
    budget = quota(root, "disk_amplifier")
    outcome, workdir = beside_innocent(root, lambda: run(root, "disk_amplifier", ("sparse,links",), limits=LIMITS))
    assert outcome.exit_code == 0 and outcome.stderr == b"", outcome
    data = (workdir / "linked" / "data").stat()
    assert data.st_nlink == 301 and (workdir / "linked" / "copy299").stat().st_ino == data.st_ino
    assert (workdir / "hole").stat().st_blocks == 0 and (workdir / "hole").stat().st_size == 12 * 2**20
    assert host_cost(workdir) <= budget
    assert written["data"] <= 2 * 2**20 + 8192


def test_a_copy_back_over_the_quota_is_refused_before_it_costs_more(tmpfs_workdir, root, monkeypatch):
    written = measure_copy_back(monkeypatch)
    budget = quota(root, "disk_amplifier")
    outcome, workdir = beside_innocent(root, lambda: run(root, "disk_amplifier", ("many",), limits=LIMITS))
    assert outcome.exit_code == 0 and b"none of it was kept" in outcome.stderr, outcome
    assert sorted(p.name for p in workdir.iterdir()) == [], "a refused copy back leaves nothing of the run's"
    assert written["data"] + written["entries"] * copyback.ENTRY_BYTES <= budget
