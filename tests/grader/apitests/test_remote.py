"""The judge's end of the worker's socket: what a worker sends is data, bounded, and a liar only loses its test."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest

from grader.apitests.remote import (
    MAX_REPLY,
    Channel,
    Handle,
    RefTiles,
    RemoteList,
    RemoteRaised,
    WorkerGone,
    decode,
)

GOOD = [
    (3, 3),
    (True, True),
    (None, None),
    ("3\n1 2\n", "3\n1 2\n"),
    ({"h": 4, "type": "Board"}, Handle(4, "Board")),
    ({"tiles": [1, 2, 3, 0], "n": 2}, RefTiles((1, 2, 3, 0), 2)),
    ({"list": [1, {"h": 2, "type": "Board"}], "type": "generator"}, RemoteList([1, Handle(2, "Board")], "generator")),
]
BAD = [
    {"list": [{"list": [1]}]},  # a list inside a list: no sheet method returns one
    {"tiles": [1, True], "n": 2},
    {"h": "4", "type": "Board"},
    {"anything": 1},
    [1, 2],
]


@pytest.mark.parametrize(("sent", "expected"), GOOD)
def test_a_workers_answer_is_decoded_as_data(sent, expected):
    assert decode(sent) == expected


@pytest.mark.parametrize("sent", BAD)
def test_a_shape_no_method_returns_ends_the_worker(sent):
    with pytest.raises(WorkerGone):
        decode(sent)


def _worker(answer: bytes | None, hold: float = 0.0):
    """A fake worker that reads one request and sends ``answer`` (None: closes; hold: waits first)."""
    judge_end, worker_end = socket.socketpair()

    def serve():
        worker_end.recv(65536)
        if hold:
            threading.Event().wait(hold)
        if answer is not None:
            with contextlib.suppress(OSError):  # the judge stops reading a flood
                worker_end.sendall(answer)
        worker_end.close()

    threading.Thread(target=serve, daemon=True).start()
    return Channel(judge_end)


@pytest.mark.parametrize(("answer", "hold", "why"), [
    (None, 0.0, "ended"),
    (b"not json\n", 0.0, "not JSON"),
    (b'{"neither": 1}\n', 0.0, "no value"),
    (b"x" * (MAX_REPLY + 10), 0.0, "longer than"),
    (b'{"ok": 1}\n', 3.0, "stopped answering"),
])
def test_a_worker_that_dies_lies_floods_or_hangs_is_gone(answer, hold, why, monkeypatch):
    monkeypatch.setattr("grader.apitests.remote.GRACE", 0.2)
    with pytest.raises(WorkerGone, match=why):
        _worker(answer, hold).request("call", 0.1)


def test_the_students_exception_is_data_too():
    with pytest.raises(RemoteRaised) as raised:
        _worker(b'{"raised": "ValueError", "text": "ValueError: no"}\n').request("new", 1.0)
    assert raised.value.type_name == "ValueError"


def test_a_lying_answer_to_find_cannot_break_the_judge():
    """Names and missing methods of any shape: the judge keeps only well-formed entries (never a grader error)."""
    from grader.apitests.remote_api import RemoteApi

    class NoPeer:
        pass

    api = RemoteApi(_worker(None), NoPeer(), {"names": {"hamming": 3, "moves": "moves", 4: "x"},
                                              "missing": [1, ["twin", "x"], ["isGoal", ["isGoal", 2]]]}, {})
    assert api.names == {"hamming": None, "moves": "moves"}
    assert api.missing == [("isGoal", ["isGoal", "2"])]
    assert api.label("hamming") == "hamming()"


def _outcome(exit_code: int | None = 1, stderr: bytes = b"", timed_out: bool = False):
    from grader.sandbox.limits import Outcome

    return Outcome(exit_code=exit_code, signal=None, timed_out=timed_out, memory_exceeded=False, wall_seconds=1.0,
                   cpu_seconds=0.5, stdout=b"", stderr=stderr, stdout_truncated=False, stderr_truncated=False)


WHY = [  # (what the judge saw, the run's outcome, what the broken test's message must hold)
    ("the worker never connected",
     _outcome(1, b"Error: LinkageError occurred while loading main class NpzApiWorker\n"
                 b"java.lang.UnsupportedClassVersionError: NpzApiWorker has been compiled by a more recent version"),
     ["never connected", "UnsupportedClassVersionError", "exit code 1"]),
    ("the worker never connected", _outcome(None, b"", timed_out=True), ["never connected", "timed out"]),
    ("did not finish in 6 s", _outcome(None, b"", timed_out=True), ["did not finish in 6 s"]),
    ("the worker ended during this call (did the code call exit()?)", _outcome(3), ["exit code 3"]),
]


@pytest.mark.parametrize(("seen", "outcome", "holds"), WHY)
def test_a_broken_tests_message_says_what_the_judge_and_the_run_saw(seen, outcome, holds):
    """A worker that never connects (a JVM too old for the worker, a crash before the socket) is explained by its
    stderr, not left as a bare "never connected"."""
    from grader.apitests.judge import _why

    message = _why(outcome, 6.0, seen)
    assert all(part in message for part in holds), message
