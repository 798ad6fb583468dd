"""Python submissions graded with the assignment's interpreter and packages, end to end.

The programs in data/python-submissions each have one quirk (NumPy, SciPy, Python 2 code,
a construct the configured interpreter does not know, a program that only answers under
PyPy); the folder name is the verdict it must get under the configuration its test sets.
Debian 12 packages no python2, so the configured-interpreter mechanism is shown twice: with
a real CPython 2.7 where the machine has one (pyenv's here; skipped elsewhere), and with
PyPy 3.9 beside the grader's CPython 3.11 everywhere: the syntax check and the runs both go
through the configured interpreter.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.errors import ConfigError
from grader.intake import python_env
from grader.pipeline import grade
from tests.support import REPO, python27, require_tool

DATA = REPO / "tests" / "grader" / "data"
SUBMISSIONS = DATA / "python-submissions"
NUMPY = "numpy>=1.24,<2"


def _setup(tmp_path: Path, names: list[str], python_section: str) -> tuple[Path, Path]:
    subs = tmp_path / "subs"
    for name in names:
        shutil.copytree(SUBMISSIONS / name, subs / name)
    testset = tmp_path / "set"
    shutil.copytree(DATA / "testset", testset)
    with (testset / "assignment.toml").open("a", encoding="utf-8") as handle:
        handle.write(f"\n[python]\n{python_section}\n")
    return subs, testset


def _verdicts(subs: Path, testset: Path) -> dict[str, tuple[str, str, dict]]:
    results = grade(subs, testset, None, jobs=2)
    return {s.id: (s.verdict.value, "\n".join(c.message for c in s.cases), s.build) for s in results.submissions}


def test_python2_code_under_a_python3_interpreter_is_ce_naming_the_interpreter(tmp_path: Path) -> None:
    subs, testset = _setup(tmp_path, ["CE-python2-print"], 'interpreter = "python3"')
    verdict, _message, build = _verdicts(subs, testset)["CE-python2-print"]
    assert verdict == "CE"
    assert build.message.startswith("main.py:6: SyntaxError: Missing parentheses in call to 'print'")
    assert "this is Python 2 code; the assignment runs submissions with CPython 3." in build.message


def test_a_python2_class_is_graded_with_its_python27_and_numpy(tmp_path: Path) -> None:
    # Python 2 has no venv: the first run installs the last virtualenv for 2.7 into the cache (about 30 s).
    names = ["AC-python2-astar", "AC-python2-numpy", "CE-python2-print", "CE-fstring-on-python27", "RTE-imports-scipy"]
    subs, testset = _setup(tmp_path, names, f'interpreter = "{python27()}"\npackages = ["numpy>=1.16,<1.17"]')
    verdicts = _verdicts(subs, testset)
    for name in ("AC-python2-astar", "AC-python2-numpy"):  # print >>, xrange, '/', has_key; NumPy 1.16
        verdict, message, build = verdicts[name]
        assert verdict == "AC", (name, message)
        assert "with CPython 2.7" in build.message and build.message.endswith("with numpy>=1.16,<1.17")
    # Python 2 code that prints to stdout instead of output.txt: no syntax error under 2.7, the usual NO.
    assert verdicts["CE-python2-print"][0] == "NO"
    verdict, message, build = verdicts["CE-fstring-on-python27"]
    assert verdict == "CE" and "this is Python 3 code; the assignment runs submissions with CPython 2.7" \
        in build.message
    verdict, message, _ = verdicts["RTE-imports-scipy"]
    assert verdict == "RTE" and "the module 'scipy' is not available where submissions run: the assignment " \
                                "provides numpy>=1.16,<1.17 and the standard library" in message


def test_the_configured_interpreter_checks_and_runs_every_submission(tmp_path: Path) -> None:
    require_tool("pypy3")
    subs, testset = _setup(tmp_path, ["AC-runs-on-pypy-only", "CE-match-statement-on-pypy39"], 'interpreter = "pypy3"')
    verdicts = _verdicts(subs, testset)
    # Runs: the program answers only when PyPy runs it.
    verdict, message, build = verdicts["AC-runs-on-pypy-only"]
    assert verdict == "AC", message
    assert "with PyPy 3.9" in build.message
    # The syntax check: 'match' is valid for the grader's CPython 3.11, not for the assignment's PyPy 3.9.
    verdict, message, build = verdicts["CE-match-statement-on-pypy39"]
    assert verdict == "CE"
    assert build.message.startswith("main.py:3: SyntaxError:")


def test_the_same_programs_under_the_default_interpreter(tmp_path: Path) -> None:
    names = ["AC-runs-on-pypy-only", "CE-match-statement-on-pypy39"]
    subs, testset = _setup(tmp_path, names, 'interpreter = "python3"')
    verdicts = _verdicts(subs, testset)
    assert verdicts["AC-runs-on-pypy-only"][0] == "RTE"
    verdict, _, build = verdicts["CE-match-statement-on-pypy39"]
    assert build.ok and verdict == "NO"  # CPython 3.11 compiles it; it prints to stdout, not output.txt


def test_a_missing_interpreter_is_a_config_error_before_any_run(tmp_path: Path) -> None:
    subs, testset = _setup(tmp_path, ["CE-python2-print"], 'interpreter = "python2.7-not-installed"')
    with pytest.raises(ConfigError, match=r"assignment.toml::\$\.python\.interpreter: the Python interpreter "
                                          r"'python2.7-not-installed' is not installed on this machine"):
        grade(subs, testset, None)


def test_packages_are_installed_once_and_named_when_an_import_fails(tmp_path: Path) -> None:
    # The environment is cached in the user cache by a hash of interpreter and packages: the first
    # run on a machine pays for pip (about 30 s), later runs reuse it.
    subs, testset = _setup(tmp_path, ["AC-numpy-bfs", "RTE-imports-scipy"], f'packages = ["{NUMPY}"]')
    verdicts = _verdicts(subs, testset)
    verdict, message, build = verdicts["AC-numpy-bfs"]
    assert verdict == "AC", message  # it also checked that it cannot write into the environment
    assert build.message.endswith(f"with {NUMPY}")
    verdict, message, _ = verdicts["RTE-imports-scipy"]
    assert verdict == "RTE"
    assert f"the module 'scipy' is not available where submissions run: the assignment provides {NUMPY} and " \
           "the standard library" in message


def test_without_packages_the_hint_says_standard_library_only(tmp_path: Path) -> None:
    subs, testset = _setup(tmp_path, ["AC-numpy-bfs"], 'interpreter = "python3"')
    verdict, message, _ = _verdicts(subs, testset)["AC-numpy-bfs"]
    assert verdict == "RTE"
    assert "the module 'numpy' is not available where submissions run: the assignment provides the standard " \
           "library only" in message


def test_packages_pip_cannot_install_are_a_config_error(tmp_path: Path) -> None:
    subs, testset = _setup(tmp_path, ["AC-numpy-bfs"], 'packages = ["numpy>=1.24,<1.24"]')
    with pytest.raises(ConfigError, match=r"assignment.toml::\$\.python\.packages: pip install numpy>=1.24,<1.24 "
                                          r"with .* failed \(exit 1\): .*No matching distribution found for numpy"):
        grade(subs, testset, None, jobs=1)
    # Nothing half-made stays in the cache: every environment there is complete.
    assert all((env / "env.json").is_file() for env in python_env.env_root().iterdir() if env.is_dir())


@pytest.mark.filterwarnings("ignore:sandbox. bwrap unavailable")
def test_without_bubblewrap_an_unreachable_environment_is_a_config_error(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Without bwrap's private view, uid 65534 runs submissions by their host paths: an environment
    # under a 0700 folder (root's home) would make every 'import numpy' fail as the student's fault.
    from grader.sandbox import isolation

    if isolation.plan().drop_uid is None:
        pytest.skip("submissions run as the grader's own uid here")
    env = tmp_path / "private" / "env"
    env.mkdir(parents=True)
    (tmp_path / "private").chmod(0o700)
    monkeypatch.setenv(isolation.DISABLE_ENV, "bwrap")
    with pytest.raises(ConfigError, match=r"\$\.python\.packages: the package environment .* cannot be reached by "
                                          r"uid \d+, which runs submissions here without bubblewrap"):
        python_env._require_reachable(env, "assignment.toml")
    monkeypatch.delenv(isolation.DISABLE_ENV)
    if isolation.plan().backend.private_view:  # bwrap binds the environment at its path: nothing to reach
        python_env._require_reachable(env, "assignment.toml")


def test_a_wrapper_script_resolves_to_the_interpreter_it_starts(tmp_path: Path) -> None:
    # Like pyenv's shims: a shell script on the grader's side that would not run inside the sandbox.
    pypy = require_tool("pypy3")
    wrapper = tmp_path / "bin" / "course-python"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec {pypy} "$@"\n')
    wrapper.chmod(0o755)
    subs, testset = _setup(tmp_path, ["AC-runs-on-pypy-only"], f'interpreter = "{wrapper}"')
    verdict, message, build = _verdicts(subs, testset)["AC-runs-on-pypy-only"]
    assert verdict == "AC", message
    assert "with PyPy 3.9" in build.message and str(wrapper) not in build.message
