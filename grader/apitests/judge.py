"""The API judge: the tests run here, the student's classes in a worker.

The grader's process never loads a student's module or class. Each worker run
(``harness/python/apiw_worker.py``, or ``harness/java/NpzApiWorker.java`` for Java; in the sandbox like every
other run) connects back through a Unix socket in its folder; the judge sends it calls (build a Board from
tiles, call a method on a handle), reads data back (:mod:`remote`), and decides every test itself against the
solver core (:mod:`refmodel`, :mod:`board_checks`, :mod:`solver_checks`). The worker never sees a test's name,
expected answer, or a case file.

When the worker dies, hangs past a call's deadline, floods the socket or breaks the protocol,
the test it was in fails with what happened, and a new worker takes the tests after it, at
most ``MAX_RUNS`` workers in all, within the part's time.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from grader.apitests import java, python
from grader.apitests.board_checks import BoardTests
from grader.apitests.outside import Peer
from grader.apitests.protocol import Reported, clean, fate
from grader.apitests.refmodel import Fail
from grader.apitests.remote import Channel, RemoteRaised, WorkerGone
from grader.apitests.remote_api import RemoteApi, TestTimeout
from grader.apitests.solver_checks import SolverTests
from grader.intake.build import Build
from grader.sandbox import runner
from grader.testsets.assignment import Assignment

CONNECT_SECONDS = 20.0
"""How long a worker may take to start its interpreter and connect (before any student code runs)."""
FIND_SECONDS = 10.0
"""Importing the student's modules, per module (as the old harness allowed)."""
OUTPUT_BYTES = 64_000
"""The worker's stdout and stderr are only ever read for a crash's last lines."""
NEVER_CONNECTED = "the worker never connected"


class Checks(SolverTests, BoardTests):
    """The whole catalogue, as ``t_<name>`` with dots and dashes as underscores."""

    substitute = False
    """Whether the Solver runs on the worker's reference Board (it works with it)."""


def is_solver_test(name: str) -> bool:
    """The Solver and timing tests run in a worker with the reference Board; the Board tests in one without."""
    return name.startswith(("solver.", "timing."))


def worker_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """All a worker is told: where to look for the classes, and how the sheet spells their methods."""
    return {key: spec.get(key) for key in ("board_classes", "solver_classes", "modules", "styles")}


class Session:
    """One worker run: its folder, its socket, the sandbox run in a thread, the connection once made."""

    def __init__(self, build: Build, assignment: Assignment, workdir: Path, names: list[str], seconds: float) -> None:
        self.outcome: runner.Outcome | None = None
        self.error: BaseException | None = None
        self.problem: str | None = None
        self.hello: dict[str, Any] | None = None
        reference = any(is_solver_test(name) for name in names)
        launcher = java if build.language == "java" else python
        prepared = launcher.prepare(build, workdir, assignment, reference)
        if prepared.problem is not None:
            self.problem = prepared.problem
            return
        self.hello = prepared.hello
        # The socket lives in a folder of its own, shown read-only to the run (the run folder may be a fresh
        # tmpfs by the time the run starts, and a socket is not a file it copies).
        self.folder = Path(tempfile.mkdtemp(prefix="npzj-"))
        self.folder.chmod(0o711)
        self.listener = _listen(self.folder / python.SOCKET)
        limits = runner.Limits(wall_seconds=seconds, memory_mb=assignment.limits.memory_mb,
                               output_bytes=OUTPUT_BYTES, jvm=build.jvm)
        argv = [*prepared.argv, str(self.folder / python.SOCKET)]
        self.thread = threading.Thread(target=self._run, args=(argv, workdir, limits, (*prepared.readable,
                                                                                        self.folder)),
                                       daemon=True, name="api-worker")
        self.thread.start()

    def _run(self, argv: list[str], workdir: Path, limits: runner.Limits, readable: Any) -> None:
        try:
            self.outcome = runner.run_command(argv, workdir, limits, readable=readable)
        except BaseException as exc:  # a grader fault, raised again in the judge's thread
            self.error = exc

    def connect(self) -> socket.socket | None:
        """The worker's connection, or None when it ended (or never connected) first."""
        until = time.monotonic() + CONNECT_SECONDS
        self.listener.settimeout(0.1)
        try:
            while time.monotonic() < until and self.thread.is_alive():
                with contextlib.suppress(socket.timeout):
                    conn, _ = self.listener.accept()
                    return conn
            return None
        finally:
            self.listener.close()  # one connection only: nothing else in the sandbox can reach the judge

    def finish(self) -> runner.Outcome:
        self.thread.join()
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.error is not None:
            raise self.error
        assert self.outcome is not None
        return self.outcome


def _listen(path: Path) -> socket.socket:
    """A listening Unix socket at ``path``, bound through its folder's descriptor (paths may be long)."""
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(f"/proc/self/fd/{folder}/{path.name}")
        os.chmod(path, 0o777)  # the worker runs as its slot's uid
        listener.listen(1)
    except BaseException:
        listener.close()
        raise
    finally:
        os.close(folder)
    return listener


def run_session(build: Build, assignment: Assignment, workdir: Path, spec: dict[str, Any], names: list[str],
                seconds: float) -> tuple[dict[str, Reported | str], str | None]:
    """One worker's share of ``names``: the results it reached, and a problem that stops the lane (or None)."""
    session = Session(build, assignment, workdir, names, seconds)
    if session.problem is not None:
        return {}, session.problem
    results: dict[str, Reported | str] = {}
    broken: tuple[str, str] | None = None
    conn = session.connect()
    if conn is not None:
        channel, peer = Channel(conn), Peer(conn)
        try:
            hello = session.hello if session.hello is not None else worker_spec(spec)
            conn.sendall(json.dumps(hello).encode() + b"\n")
            broken = drive(channel, peer, {**spec, "language": build.language}, names, results)
        except (OSError, WorkerGone) as exc:
            left = [n for n in names if n not in results]
            broken = (left[0], str(exc)) if left else None
        finally:
            channel.close()
            if broken is not None:
                peer.kill()
            peer.close()
    outcome = session.finish()
    left = [n for n in names if n not in results]
    if left and (broken is None or broken[0] == left[0]):
        results[left[0]] = _why(outcome, seconds, broken[1] if broken else NEVER_CONNECTED)
    return results, None


def _why(outcome: runner.Outcome, seconds: float, seen: str) -> str:
    """A broken test's message: the judge's view, with the run's fate when the run says more."""
    if seen.startswith("did not finish"):  # the judge's deadline (and its SIGKILL), not the run's fate
        return seen
    if seen == NEVER_CONNECTED:  # its stderr says why (a crash in the student's imports, a JVM too old)
        return f"{seen}: {fate(outcome, seconds)}"
    if outcome.timed_out or outcome.memory_exceeded or outcome.signal is not None or seen.startswith("the worker "
                                                                                                       "ended"):
        return fate(outcome, seconds)
    return seen


def drive(channel: Channel, peer: Peer, spec: dict[str, Any], names: list[str],
          results: dict[str, Reported | str]) -> tuple[str, str] | None:
    """Run ``names`` on one connected worker; (the test it broke in, why) when it broke."""
    checks = Checks(spec)
    calibrated = calibrate(channel, peer, checks, names)
    found = channel.request("find", FIND_SECONDS * max(1, len(spec.get("modules") or [1, 2, 3])))
    if not isinstance(found, dict) or not isinstance(found.get("names"), dict) \
            or not isinstance(found.get("missing"), list):
        raise WorkerGone("the worker's answer to finding the classes was malformed")
    tests = _without_classes(found, spec, names, results)
    checks.api = RemoteApi(channel, peer, found, calibrated)
    checks.substitute = False
    if any(t.startswith(("solver.", "timing.")) for t in tests) and spec.get("reference_board", True):
        checks.substitute = channel.request("substitute", 10.0) == ""
    for name in tests:
        broke = run_test(checks, spec, name, results)
        if broke is not None:
            return name, broke
    return None


def calibrate(channel: Channel, peer: Peer, checks: Checks, names: list[str]) -> dict[tuple, float]:
    """The reference A*'s CPU time on each counted board and tracemalloc peak on each peak board, measured in
    the worker before it imports any student module (so no student code can slow or shrink them)."""
    calibrated: dict[tuple, float] = {}
    if any(n.startswith("timing.") for n in names):
        for _, tiles, n, _ in checks.solver_cases("files")[:checks.spec.get("count_files", 8)]:
            before = peer.cpu()
            channel.request("calibrate", 30.0, tiles=list(tiles), n=n)
            calibrated[(tuple(tiles), n)] = peer.cpu() - before
    if "solver.peak-memory" in names:
        for board in checks.spec.get("peak_boards", []):
            tiles = tuple(v for row in board["tiles"] for v in row)
            got = channel.request("calibrate", 30.0, tiles=list(tiles), n=len(board["tiles"]), peak=True)
            if isinstance(got, dict) and isinstance(got.get("peak"), int):
                calibrated[("peak", tiles, len(board["tiles"]))] = got["peak"]
    return calibrated


def _without_classes(found: dict[str, Any], spec: dict[str, Any], names: list[str],
                     results: dict[str, Reported | str]) -> list[str]:
    """The tests that can run: without a Board class none, without a Solver none of the Solver's."""
    modules = ", ".join(_texts(found.get("modules"))) or "the submission"
    problems = "; ".join(_texts(found.get("problems")))
    detail = problems + "; " if problems else ""

    def looked(what: str, wanted: list[str]) -> str:
        return f"no {what} class found in {modules} ({detail}looked for classes named {'/'.join(wanted)})"

    tests = list(names)
    if not found.get("board"):
        message = clean(looked("Board", spec.get("board_classes") or ["Board", "Puzzle"]))
        results.update((t, Reported(t, False, message)) for t in tests)
        return []
    if not found.get("solver"):
        message = clean(looked("Solver", spec.get("solver_classes") or ["Solver"]))
        lost = [t for t in tests if t.startswith(("solver.", "timing."))]
        results.update((t, Reported(t, False, message)) for t in lost)
        tests = [t for t in tests if t not in lost]
    return tests


def _texts(value: Any) -> list[str]:
    """A list of strings the worker sent, or nothing (it may send any shape)."""
    return [str(v)[:300] for v in value[:20]] if isinstance(value, list) else []


def run_test(checks: Checks, spec: dict[str, Any], name: str, results: dict[str, Reported | str]) -> str | None:
    """Judge one test into ``results``; why the worker broke (it must be replaced) or None."""
    method = getattr(checks, "t_" + name.replace(".", "_").replace("-", "_"), None)
    if method is None:
        results[name] = Reported(name, False, f"the judge has no test {name} (a grader fault)")
        return None
    seconds = spec.get("slow_tests", {}).get(name, spec.get("test_seconds", 10))
    started = time.monotonic()
    checks.api.deadline = started + seconds
    try:
        method()
    except Fail as fail:
        results[name] = Reported(name, False, clean(str(fail)))
    except RemoteRaised as exc:
        results[name] = Reported(name, False, clean(f"raised {exc.text}"))
    except TestTimeout:
        results[name] = Reported(name, False, f"did not finish in {seconds:g} s")
    except WorkerGone as exc:
        if time.monotonic() >= checks.api.deadline:
            return f"did not finish in {seconds:g} s"
        return str(exc)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        # The worker's data had a shape a correct method never returns (e.g. a list of lists for a board).
        results[name] = Reported(name, False, clean(f"returned data the test cannot read ({type(exc).__name__}: "
                                                    f"{exc})"))
    else:
        results[name] = Reported(name, True, f"passed in {time.monotonic() - started:.2f} s")
    return None
