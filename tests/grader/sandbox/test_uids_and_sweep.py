"""The per-run uid pool (locks shared by every grader on the machine) and the sweep of a killed
grader's leftovers, on a private lock folder and temp folder."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from grader.sandbox import sweep, uids


@pytest.fixture
def pool(tmp_path) -> uids.UidPool:
    made = uids.UidPool(base=2_100_000_000, size=3, lock_dir=tmp_path / "uids", wait=0.2)
    made.prepare()
    return made


def test_concurrent_runs_never_share_a_uid_and_a_released_one_comes_back(pool):
    leases = [pool.acquire() for _ in range(3)]
    assert sorted(lease.uid for lease in leases) == [2_100_000_000, 2_100_000_001, 2_100_000_002]
    with pytest.raises(uids.UidPoolError, match=r"all 3 per-run uids .* stayed held"):
        pool.acquire()
    leases[1].release()
    again = pool.acquire()
    assert again.uid == leases[1].uid and not again.stale


def test_another_grader_process_holding_a_uid_is_respected(pool):
    # A second process takes every uid of the pool, as another `grade` would.
    code = ("import sys, time; from grader.sandbox import uids; from pathlib import Path\n"
            f"p = uids.UidPool(2_100_000_000, 3, Path({str(pool.lock_dir)!r}), wait=0.2)\n"
            "held = [p.acquire() for _ in range(3)]; print('held', flush=True); time.sleep(30)")
    other = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             env=dict(os.environ, PYTHONPATH=os.getcwd()))
    try:
        assert other.stdout.readline() == b"held\n"
        with pytest.raises(uids.UidPoolError):
            pool.acquire()
    finally:
        other.kill()
        other.wait()
    # Its locks died with it; its pids left in the files mark the uids stale: scrubbed, then handed out.
    lease = pool.acquire()
    assert lease.stale


def test_a_lock_folder_others_could_write_is_refused(tmp_path):
    folder = tmp_path / "open"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    with pytest.raises(uids.UidPoolError, match="writable by it alone"):
        uids.UidPool(lock_dir=folder).prepare()


def test_the_pool_must_stay_in_the_uid_range(monkeypatch):
    monkeypatch.setenv(uids.BASE_ENV, "100")
    with pytest.raises(uids.UidPoolError, match="NPUZZLE_UID_BASE=100"):
        uids.UidPool.from_env()


def test_the_sweep_removes_only_folders_of_dead_owners_in_this_pid_namespace(tmp_path):
    mine = sweep.make_temp_folder(parent=str(tmp_path))
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=False)
    dead_pid = int(finished.stdout)
    ns = sweep.pid_namespace()
    dead = tmp_path / f"{sweep.TEMP_PREFIX}{ns}.{dead_pid}.12345-abcd"
    recycled = tmp_path / f"{sweep.TEMP_PREFIX}{ns}.{os.getpid()}.1-abcd"  # our pid, another start time
    elsewhere = tmp_path / f"{sweep.TEMP_PREFIX}{ns + 1}.{dead_pid}.12345-abcd"  # another PID namespace
    unnamed = tmp_path / f"{sweep.TEMP_PREFIX}abcd"  # an older grader's: no owner to judge
    for folder in (dead, recycled, elsewhere, unnamed):
        (folder / "runs" / "x").mkdir(parents=True)
    outside = tmp_path / "victim"
    outside.mkdir()
    (dead / "runs" / "x" / "link").symlink_to(outside)
    swept = sweep.sweep_temp(str(tmp_path))
    assert sorted(swept.folders) == sorted([str(dead), str(recycled)]) and swept.problems == []
    assert mine.exists() and elsewhere.exists() and unnamed.exists() and outside.exists()


def test_two_graders_sweeping_at_once_do_not_fail_on_a_folder_the_other_took(tmp_path, monkeypatch):
    # Two `grade` runs starting together both list /tmp; one removes a dead owner's folder before the
    # other looks at it. The second must go on (sweep never raises), not stop the class on a stat.
    ns = sweep.pid_namespace()
    taken = tmp_path / f"{sweep.TEMP_PREFIX}{ns}.999999999.12345-gone"
    left = tmp_path / f"{sweep.TEMP_PREFIX}{ns}.999999998.12345-left"
    taken.mkdir()
    left.mkdir()
    listing = sorted(os.scandir(tmp_path), key=lambda e: e.name)  # "gone" is listed, then removed
    taken.rmdir()
    real = os.scandir
    monkeypatch.setattr(sweep.os, "scandir", lambda path=".": listing if path == tmp_path else real(path))
    swept = sweep.sweep_temp(str(tmp_path))
    assert swept.folders == [str(left)] and swept.problems == []
