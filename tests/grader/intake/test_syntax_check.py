"""The Python syntax check: the configured interpreter compiles the entry file in the sandbox, never the grader."""

from __future__ import annotations

import resource
import shutil
import sys
from pathlib import Path

import pytest

from grader.intake import syntax_check
from grader.intake.syntax_check import check_syntax
from tests.support import python27, require_tool

PYTHON3 = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable


def _check(tmp_path: Path, source: bytes, python: str = PYTHON3, memory_mb: int = 512):
    entry = tmp_path / "sub" / "main.py"
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_bytes(source)
    return check_syntax(python, entry, "main.py", tmp_path / "check", memory_mb)


def test_valid_code_passes_and_names_the_interpreter(tmp_path: Path) -> None:
    report = _check(tmp_path, b"print('ok')\n")
    assert report.ok and report.interpreter.startswith("CPython 3.")


@pytest.mark.parametrize(("source", "message"), [
    (b"import sys\n\nprint 'K =', 3\n", "main.py:3: SyntaxError: Missing parentheses in call to 'print'"),
    (b"def f(:\n    pass\n", "main.py:1: SyntaxError:"),
    (b"x = 1\n\x00\n", "main.py: source code string cannot contain null bytes"),
    (b"# -*- coding: no-such-codec -*-\nx = 1\n", "main.py:"),
])
def test_a_bad_source_is_the_students_fault_with_its_line(tmp_path: Path, source: bytes, message: str) -> None:
    report = _check(tmp_path, source)
    assert not report.ok and report.student_fault
    assert report.message.startswith(message), report.message


def test_python2_code_is_named_with_the_interpreter_that_runs_it(tmp_path: Path) -> None:
    report = _check(tmp_path, b"print 'hello'\n")
    assert "this is Python 2 code; the assignment runs submissions with CPython 3." in report.message


@pytest.mark.parametrize("line", ['out.write(f"moves = {k}")', 'print(k, end="")', "def f(a) -> int:",
                                  "    nonlocal seen", "if (k := len(path)) > 0:", "    yield from path"])
def test_python3_only_syntax_under_python2_says_so(line: str) -> None:
    assert "this is Python 3 code; the assignment runs submissions with CPython 2.7.18" in \
        syntax_check.python3_hint(line, "CPython 2.7.18")
    assert syntax_check.python3_hint(line, "CPython 3.11.7") == ""  # a real error under Python 3: no guess


def test_plain_python2_syntax_errors_get_no_version_hint() -> None:
    assert syntax_check.python3_hint("x = elf(1", "CPython 2.7.18") == ""
    assert syntax_check.python3_hint("print 'moves', k", "CPython 2.7.18") == ""


def test_a_real_python27_names_python3_code(tmp_path: Path) -> None:
    report = _check(tmp_path, b'k = 3\nprint(f"moves = {k}")\n', python27())
    assert not report.ok and report.student_fault and report.interpreter.startswith("CPython 2.7")
    assert report.message.startswith("main.py:2: SyntaxError: invalid syntax (this is Python 3 code; the "
                                      "assignment runs submissions with CPython 2.7"), report.message


def test_the_configured_interpreter_does_the_check(tmp_path: Path) -> None:
    pypy = require_tool("pypy3")
    match = b"match [1]:\n    case [x]:\n        print(x)\n"  # Python 3.10+: PyPy 3.9 refuses it
    assert _check(tmp_path, match).ok
    report = _check(tmp_path, match, pypy, memory_mb=1024)
    assert not report.ok and report.student_fault and report.interpreter.startswith("PyPy 3.9")
    assert report.message.startswith("main.py:1: SyntaxError:")


def test_a_huge_file_costs_the_sandbox_memory_not_the_grader(tmp_path: Path) -> None:
    # 2.4 MB of one list literal: compiling it in-process once took the grader to 1 GB.
    source = b"DATA = [\n" + b"    (1, 2, 3),\n" * 160_000 + b"]\n"
    assert len(source) > 2_400_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report = _check(tmp_path, source, memory_mb=128)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 40, f"the grader grew by {grown_mb:.0f} MB"
    assert not report.ok and report.student_fault
    assert "could not compile it within the memory limit" in report.message, report.message


def test_an_entry_that_is_a_link_is_refused_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.py"
    secret.write_text("print 'host file'\n")
    entry = tmp_path / "sub" / "main.py"
    entry.parent.mkdir()
    entry.symlink_to(secret)
    report = check_syntax(PYTHON3, entry, "main.py", tmp_path / "check", 512)
    assert not report.ok and report.student_fault and "not a regular file" in report.message


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_check_and_the_probe_are_python2_code_too() -> None:
    # No Python 2 is installable here (Debian 12): parse them with lib2to3's Python 2 grammar
    # (print statement and all), which refuses Python-3-only syntax.
    lib2to3 = pytest.importorskip("lib2to3")  # gone in Python 3.13
    from lib2to3 import pygram, pytree
    from lib2to3.pgen2 import driver, parse

    from grader.intake.python_env import PROBE_SCRIPT
    from grader.intake.syntax_check import CHECK_SCRIPT

    python2 = driver.Driver(pygram.python_grammar, convert=pytree.convert)
    assert lib2to3
    for source in (CHECK_SCRIPT, PROBE_SCRIPT + "\n"):
        python2.parse_string(source)
    with pytest.raises(parse.ParseError):
        python2.parse_string('print("x", end="")\n')
