"""The Slurm array recipe against a real single-node Slurm: its slices merge into one whole run's results.

The test starts its own munged (its own key and socket), slurmctld and slurmd (Debian's slurm-wlm), with
a generated slurm.conf and every state file in a temp folder on free ports, so nothing under /etc and no
daemon of the machine is touched; it stops exactly the daemons it started, by pid. It submits
grader/integrations/clusters/slurm-array.sh as an array job (``grade --shard auto`` in each task) on the
sample class, then slurm-merge.sh with ``--dependency=afterok``, and compares the merged results.json with
one whole ``grade`` run, timings and machine paths aside. Skipped where Slurm is not installed or the test
is not root (failed under CI=true); tests/grader/integrations/test_cluster_recipes.py covers the same
recipe with Slurm's variables simulated.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.integrations.clusters import recipe_path
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, normalized
from tests.support import REPO, require_tool

pytestmark = pytest.mark.slow
START_SECONDS = 60
JOB_SECONDS = 300

SLURM_CONF = """ClusterName=npuzzle-test
SlurmctldHost={node}
AuthType=auth/munge
AuthInfo=socket={work}/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
StateSaveLocation={work}/state
SlurmdSpoolDir={work}/spool
SlurmctldPidFile={work}/slurmctld.pid
SlurmdPidFile={work}/slurmd.pid
SlurmctldLogFile={work}/log/slurmctld.log
SlurmdLogFile={work}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
NodeName={node} CPUs={cpus} RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def logs(work: Path) -> str:
    return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                     for path in sorted((work / "log").glob("*")) + sorted(work.glob("npuzzle-*.log")))


@pytest.fixture
def slurm(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A running single-node Slurm: (its work folder, the environment that reaches it)."""
    for tool in ("slurmctld", "slurmd", "sbatch", "sinfo", "munged", "mungekey"):
        require_tool(tool)
    if os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("the Slurm test starts slurmd, which needs root; CI runs as root")
        pytest.skip("slurmd needs root")
    work = tmp_path / "slurm"
    for name in ("munge", "state", "spool", "log", "bin"):
        (work / name).mkdir(parents=True)
    work.chmod(0o755)
    (work / "munge").chmod(0o711)  # munged wants its socket's folder passable by every client
    env = {**os.environ, "SLURM_CONF": str(work / "slurm.conf"), "PYTHONPATH": str(REPO),
           "PATH": f"{work / 'bin'}:{os.environ['PATH']}"}
    (work / "bin" / "grade").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m grader.cli "$@"\n')
    (work / "bin" / "grade").chmod(0o755)
    key = work / "munge" / "munge.key"
    subprocess.run(["mungekey", "--create", "--keyfile", str(key), "--force"], check=True, capture_output=True)
    key.chmod(0o400)
    node = socket.gethostname().split(".")[0]
    (work / "slurm.conf").write_text(SLURM_CONF.format(node=node, work=work, cpus=os.cpu_count() or 1,
                                                       ctld_port=free_port(), d_port=free_port()))
    daemons: list[subprocess.Popen] = []
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "start_new_session": True}
    try:
        munge = work / "munge"
        daemons.append(subprocess.Popen(
            ["munged", "--foreground", "--force", "--key-file", str(key), "--socket", str(munge / "munge.socket"),
             "--pid-file", str(munge / "munged.pid"), "--log-file", str(work / "log" / "munged.log"),
             "--seed-file", str(munge / "seed")], **quiet))
        deadline = time.monotonic() + START_SECONDS
        while not (munge / "munge.socket").exists():
            assert time.monotonic() < deadline, f"munged did not start\n{logs(work)}"
            time.sleep(0.1)
        daemons.append(subprocess.Popen(["slurmctld", "-D", "-f", str(work / "slurm.conf")], **quiet))
        daemons.append(subprocess.Popen(["slurmd", "-D", "-f", str(work / "slurm.conf")], **quiet))
        while True:
            state = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True,
                                   check=False).stdout
            if "idle" in state or "mixed" in state:
                break
            assert all(d.poll() is None for d in daemons), f"a Slurm daemon died\n{logs(work)}"
            assert time.monotonic() < deadline, f"the node did not come up: {state!r}\n{logs(work)}"
            time.sleep(0.5)
        yield work, env
    finally:
        for daemon in reversed(daemons):  # only the daemons this test started
            daemon.send_signal(signal.SIGTERM)
        for daemon in reversed(daemons):
            try:
                daemon.wait(20)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()


def placeless(path: Path) -> dict[str, Any]:
    """A results document without timings and the paths that differ between machines and folders."""
    document = json.loads(path.read_text(encoding="utf-8"))
    document.pop("testset_path")
    for submission in document["submissions"]:
        submission.pop("source")
    return normalized(document)


def test_slurm_array_slices_merge_into_one_whole_run(slurm: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    work, env = slurm
    out = tmp_path / "grading"
    out.mkdir()
    env = {**env, "SUBMISSIONS": str(SUBMISSIONS), "TESTCASES": str(TESTSET), "OUT": str(out)}

    def sbatch(*args: str) -> str:
        done = subprocess.run(["sbatch", *args], env=env, cwd=work, capture_output=True, text=True,
                              timeout=JOB_SECONDS, check=False)
        assert done.returncode == 0, f"sbatch {' '.join(args)}: {done.stderr}\n{logs(work)}"
        return done.stdout.strip()

    array = sbatch("--parsable", "--export=ALL", "--mem=1G", "--cpus-per-task=1", "--array=0-2",
                   str(recipe_path("slurm-array.sh")))
    sbatch("--wait", f"--dependency=afterok:{array}", "--export=ALL", str(recipe_path("slurm-merge.sh")))
    slices = sorted(path.parent.name for path in out.glob("slice-*/results.json"))
    assert slices == ["slice-0", "slice-1", "slice-2"], logs(work)
    whole = tmp_path / "whole"
    subprocess.run([sys.executable, "-m", "grader.cli", str(SUBMISSIONS), "--testcases", str(TESTSET), "--out",
                    str(whole), "--no-progress"], env=env, check=True, capture_output=True)
    assert placeless(out / "merged" / "results.json") == placeless(whole / "results.json")
