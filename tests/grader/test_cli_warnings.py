"""The grader's warnings read as one line of its own, not as Python's "file:line: Category: message" + source."""

from __future__ import annotations

import warnings

import click
import pytest

from grader import cli
from grader.sandbox.isolation import SandboxWarning


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
