"""A case's runs entering their box's resident sandbox (grader.sandbox.entry.resident): each run as fresh as a bwrap
of its own, whatever the run before it left, and the resident a grader fault when it fails, never the run's."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader.sandbox import isolation, runner
from grader.sandbox.entry import resident
from grader.sandbox.folders import box
from tests.support import REPO, SANDBOX_MODES, sandbox_mode

PYTHON = "/usr/bin/python3"
LIMITS = runner.Limits(wall_seconds=10)


@pytest.fixture(autouse=True)
def entered(monkeypatch) -> None:
    monkeypatch.setenv(isolation.DISABLE_ENV, SANDBOX_MODES["bwrap"])
    if sandbox_mode(isolation.plan()) != "bwrap":
        pytest.skip("a case's runs do not enter a resident sandbox here (no bwrap, root or C compiler)")


def _alive(pid: int) -> bool:
    """Whether ``pid`` is running (not a zombie, not gone; it may go between two reads of /proc)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _run(place: box.Box, script: str, limits: runner.Limits = LIMITS) -> runner.Outcome:
    return place.run(["/bin/sh", "-c", script], limits)


# What the first run leaves, and what the next run of the same box must not find.
LEAVE = ("echo left > /tmp/left; echo left > /dev/shm/left; ipcmk -M 4096 >/dev/null; ipcmk -Q >/dev/null; "
         "hostname 2>/dev/null; (setsid sleep 60 &) ; sleep 60 & echo started")
FIND = ("echo pid=$$; ls /tmp /dev/shm; ipcs -m -q | grep -c '^0x' || true; "
        "for p in /proc/[0-9]*; do cat $p/cmdline 2>/dev/null | tr '\\0' ' '; echo; done; "
        "grep -cv -e '^ *lo:' -e '|' /proc/net/dev; true")


def test_each_run_finds_nothing_the_run_before_it_left():
    with box.box() as place:
        first = _run(place, LEAVE)
        assert first.exit_code == 0 and b"started" in first.stdout, first
        found = _run(place, FIND)
    text = found.stdout.decode()
    assert found.exit_code == 0, (found, text)
    assert "pid=2" in text  # PID 2 of a namespace of its own, under the init
    assert "left" not in text  # neither /tmp nor /dev/shm has what the first run left
    assert "sleep" not in text  # its processes died with its namespace
    counts = [line for line in text.splitlines() if line.strip().isdigit()]
    assert counts == ["0", "0"], text  # no SysV segment or queue; no network device but lo


def test_the_box_and_the_run_are_as_under_a_bwrap_of_its_own(monkeypatch):
    script = ("id -u; pwd; echo $HOME; cat input.txt; echo out > output.txt; ls -ld /tmp | cut -c1-10; echo $$; "
              # /proc and what is read-only in it, /tmp, /dev: the same mounts with the same options, once each
              "awk '$2 ~ /^\\/(proc|tmp|dev)/ {print $2, $3, $4}' /proc/self/mounts | sort | tr '\\n' ';'; echo; "
              f"{PYTHON} -c \"import socket\ntry: socket.create_connection(('127.0.0.1', 9))\n"
              "except OSError as e: print(e.errno)\"")  # the loopback is up: refused, not unreachable
    seen = {}
    for mode in ("bwrap", "bwrap-per-run"):
        monkeypatch.setenv(isolation.DISABLE_ENV, SANDBOX_MODES[mode])
        with box.box() as place:
            (place.path / "input.txt").write_text("board\n")
            outcome = _run(place, script)
            assert (place.path / "output.txt").read_text() == "out\n"
        assert outcome.exit_code == 0, outcome
        uid, *rest = outcome.stdout.decode().split("\n")
        assert int(uid) != 0
        seen[mode] = rest
    assert seen["bwrap"] == seen["bwrap-per-run"]
    *start, mounts, refused, _ = seen["bwrap"]
    assert start == ["/run/box", "/run/box", "board", "drwxrwxrwt", "2"] and refused == str(errno.ECONNREFUSED)
    assert "/proc proc rw," in mounts and "/proc/irq proc ro," in mounts and "/tmp tmpfs rw," in mounts, mounts


def test_stdin_the_arguments_and_the_environment_reach_the_program():
    script = 'echo "$FOO" "$EMPTY."; printf "[%s]" "$@"; echo; wc -c'
    with box.box() as place:  # empty words in the argv and the environment, and more stdin than a pipe holds
        outcome = place.run(["/bin/sh", "-c", script, "sh", "", "x", ""], LIMITS, env={"FOO": "a b", "EMPTY": ""},
                            stdin_data=b"x" * 200_000)
    assert outcome.exit_code == 0 and outcome.stdout == b"a b .\n[][x][]\n200000\n", outcome


def test_a_program_installed_under_tmp_still_runs():
    """A bwrap of its own binds an install folder under /tmp inside its fresh /tmp; a run entering a resident
    would get a fresh /tmp over it, so such a run starts its own bwrap (a venv made in /tmp, as in CI)."""
    folder = Path(tempfile.mkdtemp(prefix="npuzzle-install-", dir="/tmp"))
    try:
        (folder / "bin").mkdir()
        shutil.copy2("/bin/echo", folder / "bin" / "tool")
        folder.chmod(0o755)
        with box.box() as place:
            before = place.residents.pids()
            outcome = place.run([str(folder / "bin" / "tool"), "installed"], LIMITS)
            assert place.residents.pids() == before  # no resident was made for it
    finally:
        shutil.rmtree(folder)
    assert outcome.exit_code == 0 and outcome.stdout == b"installed\n", outcome


def test_a_timeout_ends_the_run_and_the_box_serves_the_next():
    with box.box() as place:
        slow = _run(place, "sleep 30 & sleep 30", runner.Limits(wall_seconds=0.5))
        after = _run(place, "echo next")
    assert slow.timed_out and slow.signal == signal.SIGKILL, slow
    assert after.exit_code == 0 and after.stdout == b"next\n", after


def test_a_resident_that_died_is_started_again_for_the_next_run():
    with box.box() as place:
        assert _run(place, "true").exit_code == 0
        for pid in place.residents.pids():
            os.kill(pid, signal.SIGKILL)
        outcome = _run(place, "echo again")
    assert outcome.exit_code == 0 and outcome.stdout == b"again\n", outcome


def test_a_resident_whose_init_died_under_a_live_bwrap_is_replaced_for_the_run(monkeypatch):
    """Its socket is dead while it still looks alive (bwrap not reaped yet): the run goes to a fresh resident,
    not to a grader fault."""
    with box.box() as place:
        assert _run(place, "true").exit_code == 0
        for pid in place.residents.pids():
            for init in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
                os.kill(int(init), signal.SIGKILL)
                while _alive(int(init)):
                    time.sleep(0.01)
        monkeypatch.setattr(resident.Resident, "alive", property(lambda self: True))
        outcome = _run(place, "echo replaced")
    assert outcome.exit_code == 0 and outcome.stdout == b"replaced\n", outcome


def test_a_program_that_forges_the_init_s_failure_is_not_a_grader_fault():
    forged = "grader sandbox: [0123456789abcdef0123456789abcdef] cannot join the run cgroup"
    with box.box() as place:
        outcome = _run(place, f"echo '{forged}' >&2; exit 125")
    assert outcome.exit_code == 125 and outcome.stderr.startswith(forged.encode()), outcome


def test_a_failed_entry_is_a_grader_fault(tmp_path):
    """A request the init cannot run (an rlimit it cannot set) is raised with the init's message, not a verdict."""
    plan = isolation.plan()
    assert plan.resident is not None
    sandbox = resident.Resident(plan.resident, tmp_path, [], None)
    read, write = os.pipe()
    try:
        pidfd = sandbox.enter("t0k3n", ["-r99:1:1", "--"], ["/bin/true"], {}, (write, write, write))
        os.close(write)
        os.close(pidfd)
        ended = sandbox.ended()
        said = os.read(read, 500)
    finally:
        os.close(read)
        sandbox.close()
    assert os.WEXITSTATUS(ended.status) == 125 and said.startswith(b"grader sandbox: [t0k3n] cannot set an rlimit")


def test_a_resident_that_cannot_start_says_why(tmp_path):
    plan = isolation.plan()
    assert plan.resident is not None
    sandbox = resident.Resident(plan.resident, tmp_path / "not-there", [], None)
    try:
        with pytest.raises(resident.ResidentError, match=r"the resident sandbox .*: .*not-there"):
            sandbox.enter("t0k3n", ["--"], ["/bin/true"], {}, (0, 1, 2))
    finally:
        sandbox.close()


def test_the_resident_ends_with_the_grader():
    """A grader killed with -9 leaves no resident sandbox behind: the init sees its socket close."""
    code = ("import sys, time\nsys.path.insert(0, sys.argv[1])\n"
            "from grader.sandbox.folders import box\nfrom grader.sandbox import runner\n"
            "with box.box() as place:\n"
            "    place.run(['/bin/true'], runner.Limits(wall_seconds=5))\n"
            "    print(*place.residents.pids(), flush=True)\n"
            "    time.sleep(60)\n")
    grader = subprocess.Popen([sys.executable, "-c", code, str(REPO)], stdout=subprocess.PIPE,
                              env={**os.environ, isolation.DISABLE_ENV: ""})
    try:
        assert grader.stdout is not None
        pids = [int(p) for p in grader.stdout.readline().split()]
        assert pids, "the grader started no resident"
    finally:
        grader.kill()
        grader.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.05)
    # bwrap is the grader's child: a zombie until init reaps it, then gone
    alive = [pid for pid in pids if _alive(pid)]
    assert not alive, f"resident bwrap {alive} outlived its grader"


PARITY = ["AC-python-correct", "SUB-python-suboptimal", "WA-python-path-reversed", "NO-python-no-output"]


def test_a_class_gets_the_same_results_as_with_a_bwrap_per_run(monkeypatch, tmp_path):
    """Verdicts, points, exit codes and what each run printed: entering a resident changes none of them."""
    from grader import pipeline

    subs = tmp_path / "subs"
    for name in PARITY:
        shutil.copytree(REPO / "examples" / "submissions" / name, subs / name)
    seen = {}
    for mode in ("bwrap", "bwrap-per-run"):
        monkeypatch.setenv(isolation.DISABLE_ENV, SANDBOX_MODES[mode])
        graded = pipeline.grade(subs, REPO / "tests" / "grader" / "data" / "testset", None, jobs=2)
        seen[mode] = {(s.id, c.case): (c.verdict, c.points, c.exit_code, c.signal, c.moves, c.message)
                      for s in graded.submissions for c in s.cases}
    assert seen["bwrap"] == seen["bwrap-per-run"]
    assert {verdict for verdict, *_ in seen["bwrap"].values()} >= {"AC", "SUB", "WA", "NO"}
