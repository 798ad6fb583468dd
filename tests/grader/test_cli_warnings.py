"""The grader's warnings read as one line of its own, not as Python's "file:line: Category: message" + source."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import click
import pytest

from grader import cli
from grader.sandbox import isolation
from grader.sandbox.isolation import SandboxWarning
from tests.grader.sampleclass import SUBMISSIONS, TESTSET


def test_a_sandbox_warning_prints_as_one_clean_line(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    @click.command("warn")
    def warn() -> int:
        warnings.warn("sandbox: bwrap unavailable (no user namespaces);\n  using unshare", SandboxWarning, stacklevel=1)
        return 0

    monkeypatch.setitem(cli.main.commands, "warn", warn)
    assert cli.entry(["warn"]) == 0
    err = capsys.readouterr().err
    assert err == "grade: warning: sandbox: bwrap unavailable (no user namespaces); using unshare\n"
    # Outside the command, Python's own display is back.
    assert warnings.showwarning is not cli._show_warning


def test_the_sandbox_probed_beside_the_set_up_warns_once_through_the_grader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # grade probes the sandbox on a thread of its own while the test set loads: what the probe says still comes
    # once, as the grader's own line, before any grading (and the probe is not made twice).
    monkeypatch.setenv("NPUZZLE_SANDBOX_DISABLE", "bwrap")
    isolation._cached_plan.cache_clear()
    probes: list[frozenset[str]] = []
    real = isolation.probe
    monkeypatch.setattr(isolation, "probe", lambda disabled: probes.append(disabled) or real(disabled))
    shutil.copytree(SUBMISSIONS / "correct", tmp_path / "class" / "correct")
    code = cli.entry(["run", str(tmp_path / "class"), "--testcases", str(TESTSET), "--out", str(tmp_path / "out"),
                      "--no-progress"])
    isolation._cached_plan.cache_clear()  # the next test probes with its own settings
    assert code == 0 and len(probes) == 1
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if "bwrap unavailable" in line] == [
        "grade: warning: sandbox: bwrap unavailable (disabled by NPUZZLE_SANDBOX_DISABLE); using unshare "
        "(namespaces, but the host files stay visible)"]
