"""The Java worker's own parts: its JSON, and the JDK it needs.

Its hand-written JSON carries every request and answer exactly, and refuses what is not JSON.

Its reader and writer (``harness/java/NpzApiJson.java``) stand between the judge's requests and
the student's strings (a ``toString()`` may hold quotes, backslashes, control characters, any
Unicode): a value must come back to the judge as it left, or a right answer would read as wrong.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from grader.apitests import java
from tests.grader.apitests.conftest import DATA
from tests.support import require_tool

ROUND_TRIPS = {
    "a-request": {"op": "call", "seconds": 9.5, "on": {"h": 12}, "member": "equals", "args": [[[1, 2], [3, 0]]]},
    "quotes-and-backslashes": {"ok": 'a "quoted" \\ back\\slash'},
    "control-characters": {"ok": "3\n 1  2\t3\r\n\x00\x1b[31m\x7f"},
    "unicode": {"ok": "é ü 日本 \U0001F600"},
    "numbers": {"ok": [0, -1, 2**40, -(2**62), 1.5, -0.25, 1e-7]},
    "nesting-and-literals": {"ok": {"list": [None, True, False, {"h": 1, "type": "Board"}], "type": "ArrayList"}},
    "empty-things": {"a": {}, "b": [], "c": ""},
    "blank-around": {"ok": 1},
}
REFUSED = ["{not json", '{"ok": 1', '{"ok": 1} trailing', '{"ok": [1, 2}', '{"ok": nul}', '{1: 2}', "",
           '{"ok": "unterminated}']


@pytest.fixture(scope="module")
def echo(tmp_path_factory) -> Path:
    require_tool("javac")
    harness = java.compiled_harness()
    out = tmp_path_factory.mktemp("json-echo")
    subprocess.run(["javac", "-J-Xmx256m", "-encoding", "UTF-8", "-cp", str(harness), "-d", str(out),
                    str(DATA / "java_json" / "NpzApiJsonEcho.java")], check=True, capture_output=True)
    return out


def _echo(classes: Path, lines: list[str]) -> list[str]:
    done = subprocess.run(["java", "-Xmx64m", "-cp", f"{classes}:{java.compiled_harness()}", "NpzApiJsonEcho"],
                          input="\n".join(lines).encode() + b"\n", capture_output=True, check=True, timeout=60)
    return done.stdout.decode("utf-8").split("\n")[:len(lines)]


def test_every_value_comes_back_as_it_left(echo):
    names = sorted(ROUND_TRIPS)
    lines = [json.dumps(ROUND_TRIPS[n]) if n != "blank-around" else "  " + json.dumps(ROUND_TRIPS[n]) + "  "
             for n in names]
    lines += [json.dumps(ROUND_TRIPS[n], ensure_ascii=False) for n in names]  # raw UTF-8 in, too
    back = _echo(echo, lines)
    for name, line in zip(names + names, back):
        assert line.isascii(), name  # the writer escapes everything but printable ASCII
        assert json.loads(line) == ROUND_TRIPS[name], name


def test_what_is_not_json_is_refused(echo):
    assert _echo(echo, REFUSED) == ["error"] * len(REFUSED)


def test_a_jdk_too_old_for_the_worker_is_named_as_such(tmp_path, monkeypatch):
    """A javac that cannot compile for Java 16 (the worker's Unix domain socket) fails the worker's build with
    that reason, a grader fault named for the TA, not a bare compiler log."""
    real = require_tool("javac")
    fake = tmp_path / "javac"
    fake.write_text('#!/bin/sh\ncase "$*" in *"--release 16"*) echo "error: release version 16 not supported" >&2; '
                    f'exit 2;; esac\nexec {real} "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    monkeypatch.setattr(java, "_compiled", {})  # this process's compiled worker comes back afterwards
    with pytest.raises(java.HarnessBuildError, match="needs a JDK 16 or later"):
        java.compiled_harness()
