"""`grade doctor --install`: what is missing, and a clear refusal where it cannot install."""

from __future__ import annotations

import pytest

from grader.cli import entry
from grader.sandbox.probe import system_tools
from grader.sandbox.probe.system_tools import InstallFailed, Tool

THERE = Tool("there", "a test", "pkg-there", lambda: True)
GONE = Tool("gone", "a test", "pkg-gone", lambda: False)
GONE_TESTS = Tool("gone-tests", "a test", "pkg-tests", lambda: False, for_tests_only=True)


def test_missing_lists_absent_tools_and_leaves_test_tools_to_the_caller():
    tools = [THERE, GONE, GONE_TESTS]
    assert system_tools.missing(tools) == [GONE, GONE_TESTS]
    assert system_tools.missing(tools, with_test_tools=False) == [GONE]


def test_every_tool_names_a_package_and_a_reason():
    for tool in system_tools.TOOLS:
        assert tool.package and tool.used_for and callable(tool.present)


@pytest.mark.parametrize("euid, apt, expected", [
    (1000, "/usr/bin/apt-get", "needs root: sudo sh -c 'apt-get update -qq && apt-get install"),
    (0, None, "no apt-get here: install these with your system's package manager: pkg-gone"),
])
def test_install_refuses_with_the_command_to_run(monkeypatch, euid, apt, expected):
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: euid)
    monkeypatch.setattr(system_tools.shutil, "which", lambda name: apt if name == "apt-get" else None)
    with pytest.raises(InstallFailed, match=expected.replace("(", r"\(")) as raised:
        system_tools.install([GONE], print)
    assert raised.value.exit_code == 12


def test_a_failing_package_manager_is_named_with_its_last_lines(monkeypatch):
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 0)
    monkeypatch.setattr(system_tools.shutil, "which", lambda name: "/bin/false")
    monkeypatch.setattr(system_tools, "install_command",
                        lambda packages: [["sh", "-c", "echo E: Unable to locate package $0 >&2; exit 100",
                                           *packages]])
    with pytest.raises(InstallFailed, match=r"exit 100.*Unable to locate package pkg-gone"):
        system_tools.install([GONE], lambda line: None)


def test_nothing_missing_installs_nothing(monkeypatch):
    monkeypatch.setattr(system_tools, "install_command", lambda packages: pytest.fail("apt-get was run"))
    system_tools.install([], print)


def test_doctor_install_exits_with_the_documented_code_and_one_line(monkeypatch, capsys):
    monkeypatch.setattr(system_tools, "TOOLS", (GONE,))
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(system_tools.shutil, "which", lambda name: "/usr/bin/apt-get")
    assert entry(["doctor", "--install", "--no-measure"]) == 12
    err = capsys.readouterr().err
    assert "needs root" in err and "pkg-gone" in err and "Traceback" not in err
