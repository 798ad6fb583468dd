"""Under bwrap a run is admitted (slot cgroups, rlimits) before the program starts: by the compiled init,
which joins the slot and sets the rlimits itself, or (without it) by the runner while bwrap holds the
sandbox. Either way the program is limited from its first instruction, and a run that cannot be admitted
never runs at all."""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

import pytest

from grader.sandbox import cgroups, isolation, rlimits, runner
from grader.sandbox.entry import admission
from grader.sandbox.folders import box
from tests.support import SANDBOX_MODES, sandbox_mode

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
SHOW = ("import resource\n"
        "print(open('/proc/self/cgroup').read())\n"
        "for name in ('CPU', 'NOFILE', 'FSIZE', 'AS', 'CORE'):\n"
        "    print(name, *resource.getrlimit(getattr(resource, 'RLIMIT_' + name)))\n")


@pytest.fixture(autouse=True, params=["bwrap", "bwrap-per-run", "bwrap-held"])
def bwrap_path(request, monkeypatch) -> str:
    """Each way a bwrap run starts: entering its box's resident sandbox, its own bwrap with the compiled init,
    or held by bwrap and admitted by the runner."""
    monkeypatch.setenv(isolation.DISABLE_ENV, SANDBOX_MODES[request.param])
    if sandbox_mode(isolation.plan()) != request.param:
        pytest.skip(f"{request.param} is not how runs start here")
    return str(request.param)


def test_a_run_starts_in_its_slot_under_its_rlimits():
    limits = runner.Limits(wall_seconds=7, memory_mb=300, open_files=64)
    with box.box() as place:
        outcome = place.run([PYTHON, "-c", SHOW], limits)
    text = outcome.stdout.decode()
    assert outcome.exit_code == 0, outcome
    wanted = {res: (soft, hard) for res, soft, hard in rlimits.within_ours(rlimits.rlimit_values(limits, False))}
    for name in ("CPU", "NOFILE", "FSIZE", "AS", "CORE"):
        soft, hard = wanted[getattr(resource, "RLIMIT_" + name)]
        assert f"\n{name} {soft} {hard}\n" in f"\n{text}", text
    hierarchy = isolation.plan().cgroups
    if hierarchy is not None:  # in the slot's group of each controller: v2's one line, v1's memory and pids lines
        groups = {line.split(":")[1]: line.split(":")[2] for line in text.splitlines() if line.count(":") == 2}
        counted = [groups[""]] if hierarchy.version == 2 else [groups["memory"], groups["pids"]]
        assert all(cgroups.PREFIX in group for group in counted), text


def test_a_run_is_counted_in_its_slot_from_the_start():
    """The slot's own counters (not the rusage of what the runner reaped) see the run's CPU and memory."""
    if isolation.plan().cgroups is None:
        pytest.skip("no cgroups here")
    burn = ("import time\nheld = bytearray(48 * 2**20)\nheld[::4096] = b'x' * len(held[::4096])\n"
            "end = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n")
    with box.box() as place:
        outcome = place.run([PYTHON, "-c", burn], runner.Limits(wall_seconds=10, memory_mb=300))
    assert outcome.exit_code == 0, outcome
    assert outcome.cpu_seconds >= 0.3, outcome
    assert outcome.memory_peak_bytes is None or outcome.memory_peak_bytes >= 48 * 2**20, outcome


@pytest.mark.parametrize("failing", ["cgroup", "rlimit"])
def test_a_run_that_cannot_be_admitted_never_runs(failing, bwrap_path, monkeypatch):
    if failing == "cgroup" and isolation.plan().cgroups is None:
        pytest.skip("no cgroups here")
    if bwrap_path == "bwrap-held":
        expected = "refused for the test"
        if failing == "cgroup":
            def refuse(self, pid):
                raise cgroups.CgroupError(13, "refused for the test")
            monkeypatch.setattr(cgroups.SlotGroup, "admit", refuse)
        else:
            def refuse_limit(pid, res, values):
                raise PermissionError(1, "refused for the test")
            monkeypatch.setattr(admission.resource, "prlimit", refuse_limit)
    elif failing == "cgroup":  # the init's write into its slot fails (a file that refuses every write)
        expected = "could not join its cgroup"
        monkeypatch.setattr(cgroups.SlotGroup, "open_joins", lambda self: [os.open("/dev/full", os.O_WRONLY)])
    else:  # the init cannot set an rlimit (a soft limit above its hard one)
        expected = "cannot set an rlimit"
        real = rlimits.rlimit_values
        monkeypatch.setattr(rlimits, "rlimit_values", lambda *args: [*real(*args), (resource.RLIMIT_CORE, 2, 1)])
    with box.box() as place:
        with pytest.raises(OSError, match=expected):
            place.run(["/bin/sh", "-c", "echo ran > marker"], runner.Limits(wall_seconds=5))
        assert not (place.path / "marker").exists()
