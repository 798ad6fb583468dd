"""run_command's contract with the grader core, the rlimits it sets, and the layered degrade."""

from __future__ import annotations

import itertools
import os
import resource
import signal
import sys
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.sandbox import backends, isolation, rlimits, runner
from grader.sandbox.backends import base, bubblewrap
from grader.sandbox.folders.workdir import quota_bytes as workdir_quota
from grader.sandbox.probe import doctor

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


TEN_SECONDS = runner.Limits(wall_seconds=10)


def run_python(code: str, workdir: Path, limits: runner.Limits = TEN_SECONDS, **kwargs):
    return runner.run_command([PYTHON, "-c", code], workdir, limits, **kwargs)


# ---------------------------------------------------------------- the contract
def test_exit_code_output_and_files_in_the_workdir(workdir):
    (workdir / "input.txt").write_text("2 3\n", encoding="utf-8")
    outcome = run_python("import sys\n"
                         "a, b = map(int, open('input.txt').read().split())\n"
                         "open('output.txt', 'w').write(str(a * b))\n"
                         "print('done'); print('warn', file=sys.stderr); sys.exit(4)", workdir)
    assert (outcome.exit_code, outcome.signal, outcome.timed_out, outcome.memory_exceeded) == (4, None, False, False)
    assert (outcome.stdout, outcome.stderr) == (b"done\n", b"warn\n")
    assert (workdir / "output.txt").read_text(encoding="utf-8") == "6"
    assert outcome.wall_seconds > 0 and outcome.cpu_seconds > 0


def test_minimal_environment_and_closed_stdin(workdir, monkeypatch):
    monkeypatch.setenv("NPUZZLE_SECRET_TOKEN", "leak")
    outcome = run_python("import os, sys, json\n"
                         "print(json.dumps({k: os.environ[k] for k in ('HOME', 'LANG', 'TMPDIR', 'EXTRA')}))\n"
                         "print(repr(sys.stdin.read()), 'NPUZZLE_SECRET_TOKEN' in os.environ)",
                         workdir, env={"EXTRA": "yes"})
    first, second = outcome.stdout.decode().splitlines()
    # Under bwrap the run's folder is at a fixed neutral path; elsewhere at its own.
    home = bubblewrap.BOX if isolation.plan().backend is backends.BUBBLEWRAP else str(workdir)
    assert first == f'{{"HOME": "{home}", "LANG": "C.UTF-8", "TMPDIR": "{home}/.tmp", "EXTRA": "yes"}}'
    assert second == "'' False"


def test_stdin_data_is_fed(workdir):
    outcome = run_python("import sys; print(sys.stdin.read().upper(), end='')", workdir, stdin_data=b"3\n1 2 3\n")
    assert outcome.stdout == b"3\n1 2 3\n".upper()


def test_output_cap_is_exact(workdir):
    limits = runner.Limits(wall_seconds=10, output_bytes=10)
    exact = run_python("print('x' * 9)", workdir, limits)
    over = run_python("print('x' * 10)", workdir, limits)
    assert (exact.stdout, exact.stdout_truncated) == (b"x" * 9 + b"\n", False)
    assert (over.stdout, over.stdout_truncated) == (b"x" * 10, True)


def test_killed_by_a_signal_is_reported_as_the_signal(workdir):
    outcome = run_python("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", workdir)
    assert (outcome.exit_code, outcome.signal, outcome.timed_out) == (None, signal.SIGSEGV, False)


def test_missing_program_is_a_failed_run_not_an_exception(workdir):
    outcome = runner.run_command(["/nonexistent/program"], workdir, runner.Limits(wall_seconds=5))
    assert outcome.exit_code not in (0, None)
    assert b"/nonexistent/program" in outcome.stderr


def test_memory_error_in_a_successful_run_is_not_memory_exceeded(workdir):
    outcome = run_python("print('MemoryError is just text here')", workdir)
    assert outcome.exit_code == 0 and not outcome.memory_exceeded


MB = 2**20


@pytest.mark.parametrize("limit, failed, stderr, oom_killed, rss, expected", [
    (256, True, b"", True, 0, True),                             # the cgroup's OOM kill is proof alone
    (256, True, b"MemoryError\n", False, 230 * MB, True),        # the text, and the process near its limit
    (256, True, b"MemoryError\n", False, 12 * MB, False),        # the text alone: the program's own failure
    (256, True, b"java.lang.OutOfMemoryError", False, 127 * MB, False),
    (256, False, b"MemoryError\n", False, 250 * MB, False),      # a run that succeeded ran out of nothing
    (256, True, b"segfault\n", False, 250 * MB, False),          # no claim, no kill: not memory
    (16, True, b"MemoryError\n", False, 17 * MB, False),         # the sandbox's own shim holds this much
    (256, True, b"MemoryError\n", False, None, False),          # no figure of the run's own: not confirmed
], ids=["oom-kill", "confirmed", "printed-only", "java-printed-under-half", "succeeded", "no-claim", "shim-only",
        "unmeasured"])
def test_out_of_memory_comes_from_what_the_grader_measured(limit, failed, stderr, oom_killed, rss, expected):
    memory, note = runner.out_of_memory(runner.Limits(memory_mb=limit), failed, stderr, oom_killed, rss)
    assert memory is expected
    claimed_but_refused = failed and stderr != b"segfault\n" and not expected and not oom_killed
    assert ("said it ran out of memory" in note) is claimed_but_refused


def test_as_root_the_workdir_is_a_capped_tmpfs_for_the_run_alone(workdir):
    if not isolation.plan().workdir_tmpfs:
        pytest.skip("a tmpfs workdir needs root")
    (workdir / "data.txt").write_text("from the host\n")
    outcome = run_python("import os, sys\n"
                         "print(open('data.txt').read(), end='')\n"
                         "os.symlink('/etc/passwd', 'link'); os.mkfifo('fifo')\n"
                         "open('small', 'wb').write(b'kept')\n", workdir)
    assert outcome.stdout == b"from the host\n" and outcome.stderr == b"", outcome
    # Back on the host: what it wrote (the link as a link, never followed), the special file left behind.
    assert os.readlink(workdir / "link") == "/etc/passwd" and not (workdir / "fifo").exists()
    assert (workdir / "small").read_bytes() == b"kept"
    assert not os.path.ismount(workdir) and sorted(p.name for p in workdir.parent.iterdir()) == ["work"]


def test_a_run_that_fills_its_tmpfs_gets_nothing_back_and_is_told(workdir):
    if not isolation.plan().workdir_tmpfs:
        pytest.skip("a tmpfs workdir needs root")
    (workdir / "data.txt").write_text("from the host\n")
    outcome = run_python("import os, sys\n"
                         "try:\n"
                         "    for n in range(20):\n"  # 200 MB in files under the file-size limit
                         "        open(f'big{n}', 'wb').write(b'x' * (10 * 2**20))\n"
                         "except OSError as exc:\n"
                         "    print(exc.strerror)\n", workdir, runner.Limits(wall_seconds=20))
    assert outcome.stdout == b"No space left on device\n", outcome
    assert outcome.stderr.startswith(b"\ngrader: the run left more than ") and b"none of it was kept" in outcome.stderr
    assert sorted(p.name for p in workdir.iterdir()) == [], sorted(p.name for p in workdir.iterdir())
    assert not os.path.ismount(workdir) and sorted(p.name for p in workdir.parent.iterdir()) == ["work"]


def test_runs_as_a_uid_of_its_own_when_root(workdir):
    if os.geteuid() != 0:
        pytest.skip("the uid drop applies to a grader running as root")
    pool = isolation.plan().uid_pool
    outcome = run_python("import os; print(os.getuid(), os.getgid(), os.getgroups())", workdir)
    uid, gid, groups = outcome.stdout.split(maxsplit=2)
    assert uid == gid and groups == b"[]\n"
    if pool is not None:
        assert pool.base <= int(uid) < pool.base + pool.size
    else:
        assert int(uid) == isolation.NOBODY
    # The workdir is the run's while it runs, root's (0700) after: the uid's next run finds nothing.
    assert (workdir / ".tmp").stat().st_uid == 0 and workdir.stat().st_uid == 0
    assert workdir.stat().st_mode & 0o777 == 0o700


# ---------------------------------------------------------------- rlimits
def test_rlimits_for_native_code_limit_the_address_space():
    values = {res: (soft, hard) for res, soft, hard in
              rlimits.rlimit_values(runner.Limits(wall_seconds=2.5, memory_mb=100, open_files=64), False)}
    assert values[resource.RLIMIT_AS] == (100 * 2**20, 100 * 2**20)
    assert values[resource.RLIMIT_CPU] == (3, 4)  # cpu defaults to the wall limit, rounded up
    assert values[resource.RLIMIT_NOFILE] == (64, 64)
    assert values[resource.RLIMIT_CORE] == (0, 0)
    assert resource.RLIMIT_DATA not in values and resource.RLIMIT_NPROC not in values


def test_rlimits_for_the_jvm_limit_data_not_address_space():
    argv = ["java", "-Xmx512m", "-Xss64m", "Main"]
    values = {res: soft for res, soft, _ in rlimits.rlimit_values(runner.Limits(memory_mb=512, jvm=True), True, argv)}
    assert values[resource.RLIMIT_DATA] == rlimits.jvm_data_bytes(512, argv)
    assert resource.RLIMIT_AS not in values
    assert values[resource.RLIMIT_NPROC] == rlimits.NPROC_LIMIT  # only with a dedicated uid


def test_the_jvm_data_limit_leaves_room_for_every_thread_stack():
    base = rlimits.jvm_data_bytes(512)
    assert base == 512 * 2**20 + rlimits.JVM_THREADS_ALLOWED * 2**20 + rlimits.JVM_NATIVE_BYTES
    assert rlimits.jvm_data_bytes(512, ["java", "-Xss64m"]) - base == rlimits.JVM_THREADS_ALLOWED * 63 * 2**20
    assert rlimits.jvm_data_bytes(512, ["java", "-Xss512k"]) < base


def test_file_size_limit_leaves_room_to_see_truncated_output():
    values = {res: soft for res, soft, _ in
              rlimits.rlimit_values(runner.Limits(output_bytes=5_000_000, file_size_bytes=1000), False)}
    assert values[resource.RLIMIT_FSIZE] == 5_000_001


def test_workdir_quota_is_content_plus_room(tmp_path):
    (tmp_path / "Solver.class").write_bytes(b"x" * 10_000)
    limits = runner.Limits(file_size_bytes=50_000_000, output_bytes=1000)
    assert workdir_quota(tmp_path, limits) == 10_000 + 4096 + 100_000_000


@pytest.mark.parametrize("backend", [backends.BUBBLEWRAP, backends.UNSHARE])
def test_status_through_a_namespace_init_decodes_signals(backend):
    exited_137 = 137 << 8
    assert backend.decode_status(exited_137) == (None, signal.SIGKILL)
    assert backend.decode_status(3 << 8) == (3, None)
    assert backend.decode_status(signal.SIGKILL) == (None, signal.SIGKILL)


def test_status_without_a_namespace_is_the_programs_own():
    assert backends.BARE.decode_status(137 << 8) == (137, None)
    assert backends.BARE.decode_status(signal.SIGXCPU) == (None, signal.SIGXCPU)


# ---------------------------------------------------------------- the layered degrade
def test_without_bwrap_the_next_layer_is_chosen_and_said():
    full = isolation.probe(frozenset())
    degraded = isolation.probe(frozenset({"bwrap"}))
    assert degraded.backend is not backends.BUBBLEWRAP
    assert "bwrap" not in degraded.layers and "read-only-system" not in degraded.layers
    statuses = {s.name: s for s in degraded.statuses}
    assert not statuses["bwrap"].available and "disabled" in statuses["bwrap"].reason
    expected = backends.UNSHARE if statuses["unshare"].available else backends.BARE
    assert degraded.backend is expected
    assert len(degraded.notes) == 1 and degraded.notes[0].startswith("sandbox: bwrap unavailable")
    if full.backend is backends.BUBBLEWRAP:
        assert full.notes == () and "read-only-system" in full.layers


def test_without_any_namespace_the_reaper_remains():
    bare = isolation.probe(frozenset({"bwrap", "unshare"}))
    assert bare.backend is backends.BARE
    assert "reaper" in bare.layers and "pid-namespace" not in bare.layers
    assert "rlimits" in bare.layers
    assert "no namespaces" in bare.notes[0]


def test_the_degrade_is_warned_once_and_runs_still_work(monkeypatch, workdir):
    monkeypatch.setenv(isolation.DISABLE_ENV, "bwrap,unshare")
    isolation._cached_plan.cache_clear()
    with pytest.warns(isolation.SandboxWarning, match="bwrap unavailable"):
        layers = runner.isolation_layers()
    with warnings.catch_warnings():
        warnings.simplefilter("error", isolation.SandboxWarning)  # a second warning would fail here
        assert runner.isolation_layers() == layers
        outcome = run_python("print('ok')", workdir)
    assert outcome.stdout == b"ok\n" and "reaper" in layers


def test_layers_are_probed_once(monkeypatch):
    calls = []
    real = isolation.probe
    monkeypatch.setattr(isolation, "probe", lambda disabled: calls.append(disabled) or real(disabled))
    monkeypatch.setenv(isolation.DISABLE_ENV, "unshare")
    isolation._cached_plan.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        first, second = runner.isolation_layers(), runner.isolation_layers()
    assert first == second and len(calls) == 1


def test_bwrap_binds_only_system_dirs_readable_paths_and_the_workdir(tmp_path):
    readable, work = tmp_path / "jdk", tmp_path / "run"
    args = bubblewrap.prefix("bwrap", work, [readable], drop_uid=65534)
    writable = [source for flag, source in itertools.pairwise(args) if flag == "--bind"]
    read_only = {source for flag, source in itertools.pairwise(args) if flag == "--ro-bind"}
    assert writable == [str(work)]
    assert read_only <= set(base.SYSTEM_DIRS) | {str(readable)} and str(readable) in read_only
    assert {"--unshare-net", "--unshare-pid", "--die-with-parent"} <= set(args)
    assert args[args.index("--reuid=65534") - 1].endswith("setpriv")


# ---------------------------------------------------------------- grade doctor
def test_doctor_reports_every_layer_and_what_runs_get(monkeypatch):
    monkeypatch.setenv(isolation.DISABLE_ENV, "bwrap")
    result = CliRunner().invoke(doctor.doctor, ["--no-measure"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    layers = {line.split()[1]: line for line in lines if line.startswith(("on ", "off"))}
    assert {"rlimits", "uid-drop", "per-run-uid", "bwrap", "unshare", "subreaper", "cgroup", "tmpfs"} <= set(layers)
    assert layers["bwrap"].startswith("off  bwrap") and "disabled by NPUZZLE_SANDBOX_DISABLE" in layers["bwrap"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        backend = isolation.plan().backend
    private = "/tmp, /var/tmp and /dev/shm private 64 MB tmpfs" if backend is backends.UNSHARE else "/tmp the host's"
    assert "pipes read with a cap" in layers["tmpfs"] and private in layers["tmpfs"]
    assert layers["tmpfs"].startswith("on " if os.geteuid() == 0 else "off")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        assert f"runs get: {', '.join(runner.isolation_layers())}" in lines
    assert any(line.startswith("sandbox: bwrap unavailable") for line in lines)


def test_doctor_tells_the_truth_about_bwrap(workdir, monkeypatch):
    monkeypatch.delenv(isolation.DISABLE_ENV, raising=False)
    status = next(s for s in isolation.probe(frozenset()).statuses if s.name == "bwrap")
    # bwrap "on" exactly when a real run cannot see this repository and has no network but lo.
    outcome = run_python(f"import os; print(os.path.exists({str(Path(__file__))!r}), "
                         "open('/proc/net/dev').read().count(':'))", workdir)
    assert status.available == (outcome.stdout == b"False 1\n"), outcome


@pytest.mark.parametrize("disabled", ["bwrap", "bwrap,unshare", "bwrap,unshare,per-run-uid,cgroup,tmpfs"])
def test_doctor_measures_a_run_with_layers_switched_off(monkeypatch, disabled):
    monkeypatch.setenv(isolation.DISABLE_ENV, disabled)
    result = CliRunner().invoke(doctor.doctor, [])
    assert result.exit_code == 0, result.output
    assert any(line.startswith("overhead: ") for line in result.output.splitlines())
    assert "sweep: removed" in result.output


# ---------------------------------------------------------------- the watch's wake-ups
@pytest.fixture
def pumps(monkeypatch) -> list[float]:
    """Each time the watch reads the run's pipes (its wake-ups), as the timeouts it asked for."""
    from grader.sandbox import pipes

    seen: list[float] = []
    real = pipes.Capture.pump

    def counted(self, timeout, also=None):
        seen.append(timeout)
        return real(self, timeout, also)

    monkeypatch.setattr(pipes.Capture, "pump", counted)
    return seen


def test_a_quiet_run_is_watched_without_spinning(workdir, pumps):
    # A wait shorter than a millisecond was rounded down to poll(0): the watch spun until each CPU check,
    # burning a core beside every run. Waits now end at the next check, a few each 100 ms.
    outcome = run_python("import time; time.sleep(0.45)", workdir)
    assert outcome.exit_code == 0
    assert len(pumps) <= 4 * 0.45 / runner.CPU_CHECK_SECONDS + 4, len(pumps)


def test_a_program_printing_line_by_line_is_read_in_bursts_and_whole(workdir, pumps):
    outcome = run_python("import time\nfor i in range(400):\n    print(i, flush=True); time.sleep(0.0002)", workdir)
    assert outcome.stdout == "".join(f"{i}\n" for i in range(400)).encode()
    assert len(pumps) < 120, len(pumps)  # one wake-up per line read would be 400


def test_a_fast_stream_is_read_at_once_not_held_by_the_quiet_wait(workdir):
    # 900 kB as fast as it can go: past the quiet threshold each read, so the watch never lets the pipe fill.
    outcome = run_python("import sys\nfor _ in range(900): sys.stdout.write('x' * 999 + '\\n'); sys.stdout.flush()",
                         workdir)
    assert len(outcome.stdout) == 900_000 and not outcome.stdout_truncated and outcome.wall_seconds < 5
