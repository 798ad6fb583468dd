"""``kill -9`` of the grader mid-run loses at most the runs in flight, leaves no run process
behind, and ``--resume`` finishes the run keeping every journaled result as it was."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from grader.journal import CASES_FILE, FOLDER
from tests.support import REPO

DATA = REPO / "tests" / "grader" / "data"
EXAMPLES = REPO / "examples" / "submissions"

# The answer comes after a grandchild sleeps: a process whose command line carries a token, so
# the test can find (only) its own run processes if any outlived the grader.
SLOW_START = '''import subprocess, sys
subprocess.run([sys.executable, "-c", "import time; time.sleep(0.6)  # {token}"])
'''


def processes_with(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if token.encode() in cmdline:
            found.append(int(entry.name))
    return found


def journal_lines(out: Path) -> list[bytes]:
    return [line for path in (out / FOLDER).glob(f"*/{CASES_FILE}") for line in path.read_bytes().splitlines()]


def grade_process(subs: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "grader.cli", "run", str(subs), "--testcases",
                             str(DATA / "testset"), "--out", str(out), "-j", "1", "--no-progress", *extra],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def test_kill_9_mid_run_then_resume(tmp_path: Path) -> None:
    token = f"npuzzle-kill9-{uuid.uuid4().hex}"
    subs = tmp_path / "subs"
    for name in ("s1", "s2"):
        shutil.copytree(EXAMPLES / "AC-python-correct", subs / name)
        main = subs / name / "solver" / "__main__.py"
        main.write_text(SLOW_START.format(token=token) + main.read_text())
    out = tmp_path / "out"
    grader = grade_process(subs, out)
    try:
        deadline = time.monotonic() + 60
        while len(journal_lines(out)) < 3:
            assert grader.poll() is None, grader.stderr.read().decode()
            assert time.monotonic() < deadline, "no journal entries after 60 s"
            time.sleep(0.05)
        assert processes_with(token) or time.sleep(0.3) or processes_with(token), "no run in flight to kill"
        os.kill(grader.pid, signal.SIGKILL)  # only the grader we started, not its group
        grader.wait(10)
    finally:
        if grader.poll() is None:
            grader.kill()
            grader.wait()
    # PDEATHSIG and the reaper take the run down with the grader; give them a moment.
    deadline = time.monotonic() + 5
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.1)
    leftovers = processes_with(token)
    for pid in leftovers:  # ours (they carry our token): never leave them on a shared machine
        os.kill(pid, signal.SIGKILL)
    assert not leftovers, f"run processes outlived the killed grader: {leftovers}"

    journaled = {}
    for line in journal_lines(out):  # every line whole: each was one write, which a kill -9 does not tear
        entry = json.loads(line)
        journaled[(entry["submission"], entry["result"]["case"])] = entry["result"]
    assert 3 <= len(journaled) < 10
    assert not (out / "results.json").exists()

    resumed = grade_process(subs, out, "--resume")
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err.decode()
    data = json.loads((out / "results.json").read_text())
    cases = {(s["id"], c["case"]): c for s in data["submissions"] for c in s["cases"]}
    assert len(cases) == 10 and all(c["verdict"] == "AC" for c in cases.values())
    # The finished results were kept, not rerun: identical down to their timings.
    assert all(cases[key] == result for key, result in journaled.items())
