"""The command line's small promises: help and version, warnings instead of silent no-ops, what a resume reused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.cli import entry
from tests.grader.sampleclass import SUBMISSIONS, TESTSET
from tests.support import REPO


def test_bare_grade_prints_help_with_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: grade [OPTIONS] COMMAND") and "Exit codes:" in out and "run" in out


@pytest.mark.parametrize("command", [["run"], ["check"], ["merge"], ["testcases"], ["testcases", "validate"],
                                     ["gradescope", "build"], ["export"], ["cluster", "recipes"]])
def test_subcommand_help_leaves_the_exit_codes_to_the_top(command: list[str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert entry([*command, "--help"]) == 0
    assert "Exit codes:" not in capsys.readouterr().out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry(["--version"]) == 0
    assert capsys.readouterr().out.startswith("grade ")


def test_npuzzle_solve_names_itself() -> None:
    code = ("import sys; sys.argv[0] = '/usr/bin/npuzzle-solve'; from solver.cli import entry; "
            "sys.exit(entry(['--help']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)
    assert done.returncode == 0 and done.stdout.startswith("Usage: npuzzle-solve")


def test_doctor_without_bubblewrap_measures_instead_of_crashing(capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NPUZZLE_SANDBOX_DISABLE", "bwrap")
    assert entry(["doctor"]) == 0
    captured = capsys.readouterr()
    assert "internal error" not in captured.err and "overhead:" in captured.out


def _class(tmp_path: Path) -> Path:
    shutil.copytree(SUBMISSIONS / "correct", tmp_path / "class" / "correct")
    return tmp_path / "class"


def test_only_matching_nobody_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in --only would grade nobody and exit 0: refused before grading, naming the ids there are."""
    assert entry(["run", str(_class(tmp_path)), "--testcases", str(TESTSET), "--out", str(tmp_path / "out"),
                  "--only", "nobody", "--no-progress"]) == 5
    assert "--only nobody matches none of its 1 submissions (correct)" in capsys.readouterr().err
    assert not (tmp_path / "out" / "results.json").exists()


def test_only_with_one_pattern_matching_nobody_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert entry(["run", str(_class(tmp_path)), "--testcases", str(TESTSET), "--out", str(tmp_path / "out"),
                  "--only", "nobody", "--only", "corr*", "--no-progress"]) == 0
    assert "warning: --only 'nobody' matches no submission" in capsys.readouterr().err


def test_resume_says_what_it_found_and_reused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", str(_class(tmp_path)), "--testcases", str(TESTSET), "--out", str(tmp_path / "out"), "--no-progress"]
    assert entry([*argv, "--resume"]) == 0
    assert "warning: --resume found no journal" in capsys.readouterr().err
    assert entry([*argv, "--resume"]) == 0
    assert "resumed: 4 results from the journal were kept, not run again (1 of 1 submissions now complete)" \
        in capsys.readouterr().err


def _as_a_shell_starts_it() -> None:
    """In the child before exec: Ctrl-C's signal unblocked and at its default, as an interactive shell starts a
    command. A child inherits an ignored or blocked SIGINT, and Python then installs no KeyboardInterrupt
    handler: pytest-xdist's workers ignore SIGINT (their /proc/PID/status SigIgn), so a grader started
    from one as it is would never see the Ctrl-C."""
    import signal

    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _descendant_runs(root: int, *args: bytes) -> bool:
    """Whether a process below ``root`` (its children, theirs, ...) has ``args`` among its arguments, in a row."""
    parents: dict[int, int] = {}
    lines: dict[int, bytes] = {}
    for proc in os.scandir("/proc"):
        if proc.name.isdigit():
            try:
                stat = Path(proc.path, "stat").read_bytes()
                lines[int(proc.name)] = b"\0" + Path(proc.path, "cmdline").read_bytes()
            except OSError:
                continue
            parents[int(proc.name)] = int(stat.rsplit(b")", 1)[1].split()[1])
    for pid, line in lines.items():
        if b"\0" + b"\0".join(args) + b"\0" in line:
            seen = pid
            while seen > 1 and seen != root:
                seen = parents.get(seen, 0)
            if seen == root and pid != root:
                return True
    return False


def test_ctrl_c_points_at_resume(tmp_path: Path) -> None:
    import signal
    import time

    looping = tmp_path / "class" / "looping"
    looping.mkdir(parents=True)
    (looping / "main.py").write_text("while True:\n    pass\n")
    process = subprocess.Popen([sys.executable, "-m", "grader.cli", str(tmp_path / "class"), "--testcases",
                                str(TESTSET), "--out", str(tmp_path / "out"), "--no-progress", "-j", "1",
                                "--time-limit", "4"],
                               env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=_as_a_shell_starts_it)  # noqa: PLW1509 (two signal calls, no locks)
    # Ctrl-C while the first run loops: poll for the run (`python -B main.py`; the syntax check before it
    # names main.py too) among the grader's descendants. A fixed sleep lands too early or, on a loaded
    # machine or beside other test workers, after the class is done.
    deadline = time.monotonic() + 60
    while not _descendant_runs(process.pid, b"-B", b"main.py") and time.monotonic() < deadline \
            and process.poll() is None:
        time.sleep(0.1)
    assert process.poll() is None, "the grader ended before its first run looped"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "run the same command with --resume" in err
