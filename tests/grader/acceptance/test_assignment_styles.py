"""Assignment styles real classes hand out, each graded from its worked configuration in testcases/README.md:
a puzzle with no N line, every placeholder in [command] mode, an interpreter behind a shim, and one class in
both Python 2 and Python 3.

The program in data/styles/rows-or-n reads either layout; with --rows-only it exits 3 on an N line, so the rows
test fails if the grader passes the file through unchanged.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from grader.pipeline import grade
from tests.support import REPO, python27

DATA = REPO / "tests" / "grader" / "data"
PROGRAM = DATA / "styles" / "rows-or-n"
CASES = ["3x3-d3", "2x2-d5", "3x3-unsolvable"]


def worked(name: str) -> str:
    """A worked configuration's TOML, as testcases/README.md shows it."""
    readme = (REPO / "testcases" / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"```toml\n(# worked configuration: {re.escape(name)}\n.*?)```", readme, re.S)
    assert found, f"testcases/README.md lost its {name} worked configuration"
    return found.group(1)


def _grade(tmp_path: Path, config: str, programs: dict[str, Path]) -> dict[str, tuple[str, str]]:
    testset = tmp_path / "set"
    shutil.copytree(DATA / "testset", testset)
    (testset / "assignment.toml").write_text(config, encoding="utf-8")
    subs = tmp_path / "subs"
    for sid, program in programs.items():
        shutil.copytree(program, subs / sid)
    results = grade(subs, testset, None, jobs=2, cases=CASES)
    return {s.id: (s.verdict.value, s.build.message + "\n" + "\n".join(c.message for c in s.cases))
            for s in results.submissions}


def test_rows_only_input_reaches_the_program_without_its_n_line(tmp_path: Path) -> None:
    config = worked("rows-stdin") + '\n[python]\nrun = ["{python}", "{entry}", "--rows-only"]\n'
    assert _grade(tmp_path, config, {"rows": PROGRAM})["rows"][0] == "AC"


def test_the_n_first_default_would_have_failed_the_same_program(tmp_path: Path) -> None:
    # The control: the same program, the N line left in, exits 3 on every case.
    config = worked("rows-stdin").replace('input_format = "rows"', "") + \
        '\n[python]\nrun = ["{python}", "{entry}", "--rows-only"]\n'
    verdict, message = _grade(tmp_path, config, {"rows": PROGRAM})["rows"]
    assert verdict == "RTE" and "found an N line first" in message


def test_command_mode_fills_python_and_entry(tmp_path: Path) -> None:
    verdict, message = _grade(tmp_path, worked("command-python"), {"cmd": PROGRAM})["cmd"]
    assert verdict == "AC", message


def test_an_interpreter_behind_a_shim_is_resolved_to_its_real_program(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Like pyenv's: the shim finds its Python only through a variable of the TA's shell, which runs never get.
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "npuzzle-test-shim-python"
    shim.write_text('#!/bin/sh\n[ -n "$SHIM_TARGET" ] || { echo "shim: no version set" >&2; exit 127; }\n'
                    'exec "$SHIM_TARGET" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("SHIM_TARGET", sys.executable)
    config = worked("pyenv-python").replace('"python2.7"', f'"{shim.name}"')
    verdict, message = _grade(tmp_path, config, {"shimmed": PROGRAM})["shimmed"]
    assert verdict == "AC", message
    assert str(shim) not in message and f"({sys.executable})" in message


def test_one_class_in_python_2_and_3(tmp_path: Path) -> None:
    config = worked("python-2-and-3").replace('"python2.7"', f'"{python27()}"')
    verdicts = _grade(tmp_path, config, {"py3": PROGRAM, "py2": DATA / "python-submissions" / "CE-python2-print"})
    assert verdicts["py3"][0] == "AC" and "fallback" not in verdicts["py3"][1]
    verdict, message = verdicts["py2"]
    assert "the fallback: CPython 2 code" in message and verdict != "CE", message


def test_python_code_under_src_is_found(tmp_path: Path) -> None:
    # An IDE's layout: the program in src/solver.py; it runs from the top folder, where the input is.
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    shutil.copy(PROGRAM / "main.py", project / "src" / "solver.py")
    (project / "README.md").write_text("my project\n")
    verdict, message = _grade(tmp_path, worked("command-python").replace('language = "command"\n', ""),
                              {"ide": project})["ide"]
    assert verdict == "AC" and "runs src/solver.py" in message, message
