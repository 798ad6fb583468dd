"""The compiled sandbox init (grader/sandbox/entry/boxinit.c), run directly: what it promises the runner (the program's
status as a shell reports it, the slot joined, the rlimits set, the uid and every capability dropped, nothing
of the run's secret or the grader's fds left to the program), and that its own failures carry the token."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from grader.sandbox import limits
from grader.sandbox.backends.bubblewrap import init_arguments
from grader.sandbox.entry import boxinit

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
TOKEN = "0123456789abcdef" * 2


@pytest.fixture(scope="module")
def init() -> Path:
    built = boxinit.build()
    if isinstance(built, str):
        if os.environ.get("CI"):
            pytest.fail(f"the sandbox init does not build in CI: {built}")
        pytest.skip(built)
    return built


def start(init: Path, options: list[str], program: list[str], pass_fds: tuple[int, ...] = (),
          token: str = TOKEN) -> subprocess.CompletedProcess[bytes]:
    env = {"PATH": "/usr/bin:/bin", limits.TOKEN_ENV: token}
    return subprocess.run([str(init), *options, "--", *program], env=env, capture_output=True, timeout=30,
                          pass_fds=pass_fds, stdin=subprocess.DEVNULL, check=False, cwd="/")


@pytest.mark.parametrize(("script", "status"), [("exit 3", 3), ("kill -9 $$", 128 + 9), ("kill -15 $$", 128 + 15)])
def test_it_ends_with_the_programs_status_as_a_shell_reports_it(init, script, status):
    assert start(init, [], ["/bin/sh", "-c", script]).returncode == status


def test_a_program_that_cannot_run_is_127_or_126(init, tmp_path):
    missing = start(init, [], [str(tmp_path / "no-such-program")])
    assert missing.returncode == 127 and b"No such file or directory" in missing.stderr
    plain = tmp_path / "not-executable"
    plain.write_text("echo hi\n")
    assert start(init, [], [str(plain)]).returncode == 126


def test_it_joins_through_each_fd_then_closes_it_and_every_other_fd(init):
    pipes = [os.pipe() for _ in range(3)]
    try:
        writers = tuple(w for _, w in pipes)
        done = start(init, init_arguments(writers[:2], (), None)[:-1], ["/bin/ls", "/proc/self/fd"], pass_fds=writers)
        assert done.returncode == 0, done
        for read, write in pipes[:2]:
            os.close(write)
            assert os.read(read, 16) == b"0"  # "0": the writing process itself
        # The program has stdin, stdout, stderr (and ls's own listing fd): no join fd, nor one passed to the init
        assert sorted(map(int, done.stdout.split())) == [0, 1, 2, 3], done
    finally:
        for read, write in pipes:
            os.close(read)
            if write not in [w for _, w in pipes[:2]]:
                os.close(write)


def test_the_rlimits_bind_the_program(init):
    values = [(resource.RLIMIT_NOFILE, 64, 64), (resource.RLIMIT_CPU, 5, 6),
              (resource.RLIMIT_AS, resource.RLIM_INFINITY, resource.RLIM_INFINITY), (resource.RLIMIT_CORE, 0, 0)]
    show = ("import resource as r\n"
            "for n in ('NOFILE', 'CPU', 'AS', 'CORE'): print(*r.getrlimit(getattr(r, 'RLIMIT_' + n)))")
    done = start(init, init_arguments((), values, None)[:-1], [PYTHON, "-c", show])
    assert done.returncode == 0, done
    assert done.stdout.decode().split("\n")[:4] == ["64 64", "5 6", "-1 -1", "0 0"]


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another uid needs root")
def test_the_program_runs_as_the_uid_with_no_group_or_capability_left(init):
    uid = 2_000_000_250
    done = start(init, init_arguments((), (), uid)[:-1], ["/bin/cat", "/proc/self/status"])
    assert done.returncode == 0, done
    status = dict(line.split(":", 1) for line in done.stdout.decode().splitlines())
    assert status["Uid"].split() == [str(uid)] * 4 and status["Gid"].split() == [str(uid)] * 4
    assert status["Groups"].strip() == ""
    for caps in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(status[caps], 16) == 0, caps
    assert status["NoNewPrivs"].strip() == "1"


def test_the_token_is_neither_in_the_programs_environment_nor_left_in_the_inits(init):
    """As root the program may read the init's /proc/PID/environ: the init wiped its copy of the token."""
    show = "import os\nprint(sorted(os.environ))\nprint(open('/proc/%d/environ' % os.getppid(), 'rb').read())"
    done = start(init, [], [PYTHON, "-c", show])
    assert done.returncode == 0, done
    assert TOKEN.encode() not in done.stdout and limits.TOKEN_ENV.encode() not in done.stdout.split(b"\n")[0]


@pytest.mark.parametrize(("options", "words"), [
    (["-x"], "unknown argument"),
    (["-rnot-a-limit"], "cannot read a number"),
    (["-j987"], "cannot join the run cgroup"),  # an fd that is not open
    ([f"-r{resource.RLIMIT_CORE}:2:1"], "cannot set an rlimit"),  # soft above hard
])
def test_its_own_failures_carry_the_token_and_exit_125(init, options, words):
    done = start(init, options, ["/bin/true"])
    prefix = limits.SHIM_FAULT.format(token=TOKEN) + words
    assert done.returncode == limits.SHIM_EXIT and done.stderr.decode().startswith(prefix), done


def test_it_runs_nothing_without_a_program(init):
    done = start(init, [], [])
    assert done.returncode == limits.SHIM_EXIT and b"no program to run" in done.stderr
