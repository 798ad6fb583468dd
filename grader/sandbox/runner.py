"""Run one untrusted command under limits and the strongest isolation this machine offers.

:func:`run_command` is the only place the grader starts a submission. Whatever the
layers (see :mod:`grader.sandbox.isolation`), every run gets: an argv list, its workdir as cwd,
stdin from /dev/null (or a pipe), a minimal environment, its own session, its own uid and
slot cgroups where the machine allows (:mod:`grader.sandbox.slots`), stdout and stderr
through pipes read with a cap (:mod:`grader.sandbox.pipes`), POSIX rlimits, a wall cap that
counts only the time the run ran or chose to wait, never the time it waited for a CPU
(:mod:`grader.sandbox.cpuwait`), a CPU limit on the whole run, and its whole process tree
killed and reaped when it ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import signal
import subprocess
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from grader.sandbox import cgroups, command, cpuwait, isolation, pipes, rlimits, seccomp, slots
from grader.sandbox.backends import bubblewrap
from grader.sandbox.backends.base import wait_exit
from grader.sandbox.entry import admission, resident
from grader.sandbox.evidence import held_bytes, out_of_memory, over_cpu
from grader.sandbox.folders import tmpfs
from grader.sandbox.folders import workdir as workdirs
from grader.sandbox.limits import SHIM_EXIT, SHIM_FAULT, TOKEN_ENV, Limits, Outcome

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
BWRAP_GRACE_SECONDS = 0.5
DRAIN_SECONDS = 1.0      # to read what is left in the pipes once every writer is dead
# The whole run's CPU time (all its processes) is read this often and may pass the limit by
# the grace, so a lone process still gets its own SIGXCPU from RLIMIT_CPU first.
CPU_CHECK_SECONDS = 0.1
CPU_GRACE_SECONDS = 0.5
# After a read of less than QUIET_BYTES (a program printing line by line), the watch lets the pipes fill for
# QUIET_SECONDS before it reads again: one wake-up per burst instead of one per line. A pipe holds 64 KiB, so a
# writer never blocks on it, and a faster stream is read at once.
QUIET_SECONDS = 0.002
QUIET_BYTES = 16384
# bwrap, the init shell, the copies of a capped workdir: what a run's slot holds beside the program.
SANDBOX_MEMORY_BYTES = 64 * 2**20
JOIN_FAILED = SHIM_EXIT
RUN_FOLDER = bubblewrap.BOX  # where a run sees its own folder under bwrap
WORKDIR_ROOM_BYTES = workdirs.WORKDIR_ROOM_BYTES  # what a run may add to its capped workdir
def isolation_layers() -> list[str]:
    """The layers active on this machine (probed once, cached), for results.json."""
    return isolation.plan().layers


def _killpg(pgid: int) -> None:
    if pgid <= 1:  # never our own group or "every process": the child is always its own leader
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _descendants(root: int) -> tuple[list[int], float]:
    """The pids below ``root`` and the CPU seconds ``root`` and they used so far, from /proc."""
    children: dict[int, list[int]] = {}
    ticks: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # after the command: state ppid ... utime(12) stime(13) cutime(14) cstime(15), 0-based here
        children.setdefault(int(fields[1]), []).append(int(name))
        ticks[int(name)] = sum(int(f) for f in fields[11:15])
    below, total, frontier = [], ticks.get(root, 0), list(children.get(root, []))
    while frontier:
        pid = frontier.pop()
        below.append(pid)
        total += ticks.get(pid, 0)
        frontier += children.get(pid, [])
    return below, total / os.sysconf("SC_CLK_TCK")


def warn_if_exposed(paths: Sequence[Path]) -> list[str]:
    """Warn (once per path) where no bwrap hides the host and permissions let a run's uid read ``paths``
    (the test set, the submissions): with no private view, permissions are all that keep them hidden."""
    plan = isolation.plan()
    if plan.backend.private_view or (plan.drop_uid is None and plan.uid_pool is None):
        return []
    found = [why for why in map(workdirs.readable_by_others, paths) if why]
    for why in found:
        warnings.warn(f"sandbox: without bwrap a submission can read this: {why}; chmod o-rwx it "
                      "(or install bubblewrap)", isolation.SandboxWarning, stacklevel=2)
    return found


def memory_limit_bytes(limits: Limits, argv: Sequence[str]) -> int:
    """The slot's memory limit for a run: what the rlimits allow the program, plus the sandbox's own share."""
    program = rlimits.jvm_data_bytes(limits.memory_mb, argv) if limits.jvm else limits.memory_mb * 2**20
    return program + SANDBOX_MEMORY_BYTES


def run_command(argv: Sequence[str], workdir: Path, limits: Limits, *, env: Mapping[str, str] | None = None,
                stdin_data: bytes | None = None, readable: Sequence[Path] = (),
                keep: Sequence[str] = (".",), in_place: bool = False,
                residents: resident.Residents | None = None) -> Outcome:
    """Run ``argv`` in ``workdir`` under ``limits``; a student's fault is in the Outcome, never raised.

    ``keep`` names what the caller reads in ``workdir`` after the run (paths relative to it, ``.``
    for all, the default). Where the workdir is a capped tmpfs, only those come back to the host disk, within
    the tmpfs's own size (:func:`grader.sandbox.folders.tmpfs.over`); what did not fit is said on stderr.
    ``in_place``: the workdir is capped by the caller already (a case's box, :mod:`grader.sandbox.folders.box`,
    which never touches the disk): the run uses it as it is, and ``keep`` is not used. ``residents``: the box's
    resident sandboxes (:mod:`grader.sandbox.entry.resident`), which the run enters where the plan has them.

    The run holds a worker slot for its duration (:mod:`grader.sandbox.slots`): its own uid
    (as root) and its slot's cgroups, which count its memory (shmem included), processes and
    the CPU time of all its processes together. Raises OSError only for a grader or machine
    fault (workdir missing, no uid free in the pool, a cgroup that cannot be written), with
    the cause in its message.
    """
    if not argv:
        raise ValueError("run_command needs a command")
    plan = isolation.plan()
    workdir = Path(workdir).resolve()
    capped = tmpfs.over(workdir, workdirs.quota_bytes(workdir, limits), keep) if plan.workdir_tmpfs \
        and not in_place else contextlib.nullcontext(None)
    with capped as copy_back:
        outcome = _in_slot(argv, workdir, limits, env, stdin_data, readable, plan, residents)
    if copy_back is not None and copy_back.refused:
        note = f"\ngrader: {copy_back.refused}\n".encode()
        outcome = dataclasses.replace(outcome, stderr=outcome.stderr + note)
    return outcome


def _in_slot(argv: Sequence[str], workdir: Path, limits: Limits, env: Mapping[str, str] | None,
             stdin_data: bytes | None, readable: Sequence[Path], plan: isolation.Plan,
             residents: resident.Residents | None = None) -> Outcome:
    """The run in a worker slot: the run's uid owns the workdir's content for the run alone, and
    everything in it is root's again before that uid can serve another run."""
    with slots.pool().slot() as slot:
        uid = slot.uid if slot.uid is not None else plan.drop_uid
        if not plan.backend.private_view and uid is not None:
            workdirs.check_reachable(workdir, uid)
        workdirs.give(workdir, uid)
        try:
            return _run(argv, workdir, limits, env, stdin_data, readable, plan, uid, slot.group, residents)
        finally:
            workdirs.take_back(workdir, uid)


def _environment(workdir: Path, env: Mapping[str, str] | None, plan: isolation.Plan) -> dict[str, str]:
    home = plan.backend.inside(workdir)  # under bwrap a fixed path that names no case and no student
    environment = {"PATH": SYSTEM_PATH, "HOME": home, "LANG": "C.UTF-8", "TMPDIR": f"{home}/{workdirs.TMP_NAME}"}
    environment.update(zip((env or {}).keys(), plan.backend.neutral(list((env or {}).values()), workdir)))
    return environment


def _admitted(proc: subprocess.Popen, info_read: int | None, block_write: int | None,
              group: cgroups.SlotGroup | None, values: Callable[[], list[tuple[int, int, int]]]) -> int | None:
    """The host pid of bwrap's sandbox (None without bwrap, or when bwrap failed first). Held (``block_write``),
    it is admitted into the slot under the rlimits ``values()`` before it runs, and on a fault bwrap is killed
    and reaped, then it raises; else the compiled init admits itself and only the pid bwrap reports is read."""
    if info_read is None:
        return None
    if block_write is None:
        return admission.sandbox_pid(info_read, proc.pid, admission.ADMIT_SECONDS)
    try:
        return admission.admit(proc.pid, info_read, block_write, group, values())
    except BaseException:
        os.close(info_read)
        os.wait4(proc.pid, 0)  # killed by admit: reaped here
        proc.returncode = 0
        raise


@dataclasses.dataclass
class _Ran:
    """What the grader measured of a run that started: its wait status, what wait4 counted, the watch."""

    status: int
    rusage_cpu: float
    maxrss_kb: int
    sampled_cpu: float
    timed_out: bool
    cpu_exceeded: bool
    wall: float
    meter: cpuwait.WaitMeter | None


@dataclasses.dataclass
class _Setup:
    """A run's own parts, made before it starts: its token, CPU limit, slot snapshot and output pipes."""

    token: str
    cpu_limit: float
    group: cgroups.SlotGroup | None
    start: cgroups.Start | None
    capture: pipes.Capture


def _run(argv: Sequence[str], workdir: Path, limits: Limits, env: Mapping[str, str] | None, stdin_data: bytes | None,
         readable: Sequence[Path], plan: isolation.Plan,
         uid: int | None, group: cgroups.SlotGroup | None, residents: resident.Residents | None = None) -> Outcome:
    environment = _environment(workdir, env, plan)
    start = None
    if group is not None:
        group.configure(memory_limit_bytes(limits, argv), cgroups.PIDS_MAX)
        start = group.start()
    # the token: the shims' failures carry it; nothing the submission prints can
    setup = _Setup(secrets.token_hex(16), rlimits.cpu_limit(limits), group, start, pipes.Capture(limits.output_bytes))
    entry = _resident_entry(argv, workdir, readable, plan) if residents is not None and uid is not None else None
    try:
        if residents is not None and entry is not None and uid is not None:
            ran: _Ran | Outcome = _resident_run(argv, workdir, limits, environment, stdin_data, entry, plan, uid,
                                                setup, residents)
        else:
            ran = _spawned_run(argv, workdir, limits, environment, stdin_data, readable, plan, uid, setup)
    finally:
        setup.capture.close()
    return ran if isinstance(ran, Outcome) else _outcome(ran, setup, plan, limits)


def _spawned_run(argv: Sequence[str], workdir: Path, limits: Limits, environment: dict[str, str],
                 stdin_data: bytes | None, readable: Sequence[Path], plan: isolation.Plan, uid: int | None,
                 setup: _Setup) -> _Ran | Outcome:
    """A run started as a new process tree: bwrap (its init or, held, admitted by the runner), unshare or the
    reaper shim in front of the program."""
    token, group, start, capture = setup.token, setup.group, setup.start, setup.capture
    holds = plan.holds  # the backend holds the run until the runner admits it (bwrap without its compiled init)
    if not holds:  # the reaper shim or the init reads it there and drops it (held, env is the submission's)
        environment[TOKEN_ENV] = token
    stdin_fd, _feeder = pipes.feed(stdin_data) if stdin_data is not None else (subprocess.DEVNULL, None)
    by_fd = plan.backend.held  # bwrap: reports its sandbox's pid and loads the filter by fd
    info_read, info_write = os.pipe() if by_fd else (None, None)
    block_read, block_write = os.pipe() if holds else (None, None)  # holds the sandbox until it is admitted
    filter_fd = seccomp.program_fd(plan.seccomp) if by_fd and plan.seccomp else None
    joins = tuple(group.open_joins()) if plan.init is not None and group is not None else ()
    command_argv = command.build(argv, workdir, readable, plan, limits, info_write, uid, group, filter_fd,
                                 block_read, token, joins)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            command_argv, cwd=workdir, env=environment, close_fds=True,
            pass_fds=tuple(fd for fd in (info_write, filter_fd, block_read, *joins) if fd is not None),
            stdin=stdin_fd, stdout=capture.out_write, stderr=capture.err_write, start_new_session=True)
    except OSError as exc:  # the student's program cannot be started: a run-time error
        return _not_started(argv[0], exc, (info_read, block_write), start, limits)
    finally:
        capture.close_child_ends()
        for fd in (info_write, filter_fd, block_read, stdin_fd if stdin_data is not None else None, *joins):
            if fd is not None:
                os.close(fd)
    init = _admitted(proc, info_read, block_write, group, lambda: command.rlimit_values(argv, workdir, plan,
                                                                                     limits, uid))
    sampled_cpu, timed_out, cpu_exceeded = 0.0, True, False  # until the watch says otherwise
    meter = cpuwait.WaitMeter(group.threads if group is not None else cpuwait.TreeThreads(proc.pid)) \
        if cpuwait.available() else None
    pidfd = os.pidfd_open(proc.pid)
    try:
        timed_out, cpu_exceeded = _watch(pidfd, capture, limits.wall_seconds, setup.cpu_limit, group, start, meter)
        if timed_out:
            plan.backend.on_timeout(proc.pid, group, uid)
    finally:
        os.close(pidfd)
        if info_read is not None:
            sampled_cpu = _end_namespace(info_read, proc.pid, init, sample_cpu=timed_out and group is None)
        # Kill the group before reaping its leader, so the pgid cannot have been reused.
        _killpg(proc.pid)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = status  # reaped here; keep Popen from waiting again
        if group is not None:
            group.kill_all()
        capture.drain(DRAIN_SECONDS)
    return _Ran(status, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, sampled_cpu, timed_out, cpu_exceeded,
                time.monotonic() - started, meter)


def _resident_entry(argv: Sequence[str], workdir: Path, readable: Sequence[Path],
                    plan: isolation.Plan) -> tuple[list[str], list[Path]] | None:
    """The argv the run starts and what a resident sandbox for it binds read-only beside the system; None when
    the run cannot enter one here: no resident in the plan, or a path to bind under ``/tmp`` (a bwrap of its own
    binds it in its fresh ``/tmp``, while a run entering a resident gets a fresh ``/tmp`` over the resident's,
    binds and all)."""
    if plan.resident is None:
        return None
    final = command.final_argv(argv, workdir, plan)
    paths = bubblewrap.bound_paths(final[0], readable, workdir)
    return None if any(path.is_relative_to("/tmp") for path in paths) else (final, paths)


def _resident_run(argv: Sequence[str], workdir: Path, limits: Limits, environment: dict[str, str],
                  stdin_data: bytes | None, entry: tuple[list[str], list[Path]], plan: isolation.Plan, uid: int,
                  setup: _Setup, residents: resident.Residents) -> _Ran:
    """A run entered into its box's resident sandbox (:mod:`grader.sandbox.entry.resident`): ``entry`` is the argv
    it starts and the paths the resident binds (:func:`_resident_entry`); no process started here."""
    assert plan.resident is not None
    final, paths = entry
    sandbox = residents.get(plan.resident, paths, plan.seccomp)
    values = command.rlimit_values(argv, workdir, plan, limits, uid)
    group, capture = setup.group, setup.capture
    stdin_fd, _feeder = pipes.feed(stdin_data) if stdin_data is not None else (os.open(os.devnull, os.O_RDONLY), None)
    joins = tuple(group.open_joins()) if group is not None else ()
    started = time.monotonic()
    program = [*bubblewrap.USERNS_ARGV, *final] if plan.userns else final
    request = (setup.token, bubblewrap.init_arguments((), values, uid), program, environment,
               (stdin_fd, capture.out_write, capture.err_write, *joins))
    try:
        try:
            pidfd = sandbox.enter(*request)
        except resident.ResidentError:  # it died since its last run (nothing of this run started): once more
            sandbox = residents.get(plan.resident, paths, plan.seccomp, fresh=True)
            pidfd = sandbox.enter(*request)
    finally:
        capture.close_child_ends()
        for fd in (stdin_fd, *joins):
            os.close(fd)
    timed_out, cpu_exceeded = True, False  # until the watch says otherwise
    meter = None
    if cpuwait.available():
        meter = cpuwait.WaitMeter(group.threads if group is not None else cpuwait.TreeThreads(resident.pid_of(pidfd)))
    try:
        timed_out, cpu_exceeded = _watch(pidfd, capture, limits.wall_seconds, setup.cpu_limit, group, setup.start,
                                         meter)
    finally:
        # Its death ends the run's namespace and all in it; the resident reaps it and says how it ended.
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        os.close(pidfd)
        ended = sandbox.ended()
        if group is not None:
            group.kill_all()
        capture.drain(DRAIN_SECONDS)
    return _Ran(ended.status, ended.cpu_seconds, ended.maxrss_kb, 0.0, timed_out, cpu_exceeded,
                time.monotonic() - started, meter)


def _outcome(ran: _Ran, setup: _Setup, plan: isolation.Plan, limits: Limits) -> Outcome:
    """The run's outcome from what the grader measured (a failure of the grader's own shims raised)."""
    exit_code, sig = plan.backend.decode_status(ran.status)
    stdout, stdout_cut, stderr, stderr_cut = setup.capture.result()
    shim_fault = SHIM_FAULT.format(token=setup.token).encode()
    group, start = setup.group, setup.start
    if exit_code == JOIN_FAILED and stderr.startswith(shim_fault):
        if start is not None:
            start.close()
        _raise_shim_failure(stderr.removeprefix(shim_fault), group)
    spent = group.usage(start) if group is not None and start is not None else None
    cpu = spent.cpu_seconds if spent is not None else max(ran.rusage_cpu, ran.sampled_cpu)
    timed_out = ran.timed_out or over_cpu(sig, ran.cpu_exceeded, cpu, setup.cpu_limit)
    held = held_bytes(spent, ran.maxrss_kb)
    memory, note = out_of_memory(limits, exit_code != 0 or sig is not None, stderr,
                                 spent is not None and spent.oom_killed, held)
    meter = ran.meter
    return Outcome(exit_code=exit_code, signal=sig, timed_out=timed_out, memory_exceeded=memory and not timed_out,
                   wall_seconds=round(ran.wall, 4), cpu_seconds=round(cpu, 4), stdout=stdout, stderr=stderr,
                   stdout_truncated=stdout_cut, stderr_truncated=stderr_cut,
                   memory_peak_bytes=spent.memory_peak_bytes if spent else None,
                   process_limit_hit=bool(spent and spent.pids_limit_hit),
                   cpu_wait_seconds=round(meter.waited, 4) if meter is not None else None,
                   grader_note=note if not timed_out else "")


def _not_started(program: str, exc: OSError, fds: Sequence[int | None], start: cgroups.Start | None,
                 limits: Limits) -> Outcome:
    """The outcome of a program that could not be started (exit 127, as a shell says), its fds closed."""
    for fd in fds:
        if fd is not None:
            os.close(fd)
    if start is not None:
        start.close()
    message = f"cannot run {program}: {exc.strerror or exc}\n".encode()
    return Outcome(exit_code=127, signal=None, timed_out=False, memory_exceeded=False, wall_seconds=0.0,
                   cpu_seconds=0.0, stdout=b"", stderr=message[:limits.output_bytes], stdout_truncated=False,
                   stderr_truncated=False)


def _end_namespace(info_read: int, pid: int, init: int | None, sample_cpu: bool) -> float:
    """Kill the run's PID namespace through its init (the host pid admission read from bwrap's info pipe) and
    wait for bwrap; the CPU time of the processes in it, sampled first when ``sample_cpu`` (else 0.0)."""
    os.close(info_read)
    sampled_cpu = 0.0
    if init is not None:
        if sample_cpu:
            # Sample the CPU time first: processes the kernel reaps with the namespace lose theirs.
            _, sampled_cpu = _descendants(init)
        with contextlib.suppress(OSError):  # its death ends the namespace and all in it
            os.kill(init, signal.SIGKILL)
        wait_exit(pid, BWRAP_GRACE_SECONDS)
    return sampled_cpu


def _raise_shim_failure(stderr: bytes, group: cgroups.SlotGroup | None) -> None:
    """A run whose shim failed (its exit code, and its message with the run's token, which ``stderr`` follows):
    raise the grader fault the message names."""
    if stderr.startswith(b"cannot join"):
        raise cgroups.CgroupError(0, f"a run could not join its cgroup {group.name if group else ''}: "
                                     "the grader cannot write its cgroup.procs (or, v1, tasks)")
    message = stderr.decode("utf-8", "replace").strip()
    if stderr.startswith(b"cannot load the seccomp filter"):
        raise OSError(0, message + "; NPUZZLE_SANDBOX_DISABLE=seccomp runs without it")
    if stderr.startswith(b"cannot mount"):
        raise OSError(0, f"{message} (the unshare layer's private /tmp); "
                         "NPUZZLE_SANDBOX_DISABLE=unshare runs without it")
    raise OSError(0, f"the sandbox's shim failed: {message[:300]}")


def _watch(pidfd: int, capture: pipes.Capture, wall: float, cpu_limit: float, group: cgroups.SlotGroup | None,
           start: cgroups.Start | None, meter: cpuwait.WaitMeter | None) -> tuple[bool, bool]:
    """Read the run's output until it exits (``pidfd`` readable); (timed out, CPU of the whole run over the limit).

    ``wall`` caps the run's active time: the wall clock less the time ``meter`` saw it wait for a CPU."""
    began = last = time.monotonic()
    while True:
        now = time.monotonic()
        active = now - began - (meter.waited if meter is not None else 0.0)
        if active >= wall and meter is not None and now > last:  # first count the waiting up to now
            meter.sample(now - last)
            last = now
            active = now - began - meter.waited
        if active >= wall:
            return True, False
        before = capture.taken
        if capture.pump(min(wall - active, last + CPU_CHECK_SECONDS - now), also=pidfd):
            return False, False
        if 0 < capture.taken - before < QUIET_BYTES and capture.wait(pidfd, QUIET_SECONDS):
            return False, False
        now = time.monotonic()
        if now - last >= CPU_CHECK_SECONDS:
            if meter is not None:
                meter.sample(now - last)
            last = now
            over = cpu_limit + CPU_GRACE_SECONDS
            if group is not None and start is not None and group.cpu_seconds() - start.cpu > over:
                return True, True
