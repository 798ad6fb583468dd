"""The student's Board and Solver as the judge sees them: methods called by name over the worker's socket.

:class:`RemoteApi` is what the test catalogue (:mod:`board_checks`, :mod:`solver_checks`) calls.
Every answer is data; every measure the worker takes is paired with what the judge reads from
outside the worker (:mod:`grader.apitests.outside`) before it may pass a test.
"""

from __future__ import annotations

import time
from typing import Any

from grader.apitests.outside import Peer
from grader.apitests.refmodel import Fail
from grader.apitests.remote import Channel, RemoteRaised, decode, encode

CPU_FACTOR = 20.0
"""A counted solve may take this many times the CPU the reference A* took on the same board in the same
worker (measured before any student code was loaded), plus :data:`CPU_SLACK`: a solve whose counts say it
did little work but whose CPU time says it did much more has forged its counts."""
CPU_SLACK = 0.3
RSS_FACTOR = 16.0
"""The worker's resident memory may grow this many times the tracemalloc peak it reports for a solve
(interpreter, allocator and tracemalloc overheads), plus :data:`RSS_SLACK` bytes."""
RSS_SLACK = 48 * 2**20


class TestTimeout(Exception):
    """The test's own time ran out (the judge's clock)."""


class RemoteApi:
    """One worker's Board and Solver, the spelling of each sheet method, and the test's deadline."""

    def __init__(self, channel: Channel, peer: Peer, found: dict[str, Any], calibrated: dict[tuple, float]) -> None:
        """``calibrated``: (tiles, n) -> the reference A*'s CPU seconds, ("peak", tiles, n) -> its tracemalloc
        peak, both measured in this worker before any student code was loaded."""
        self.channel = channel
        self.peer = peer
        self.names: dict[str, str | None] = {k: v if isinstance(v, str) else None
                                             for k, v in found["names"].items() if isinstance(k, str)}
        self.missing = [(m[0], [str(c) for c in m[1]]) for m in found["missing"]
                        if isinstance(m, list) and len(m) == 2 and isinstance(m[0], str) and isinstance(m[1], list)]
        conformance = found.get("conformance")
        self.conformance: list[str] | None = [str(c)[:400] for c in conformance[:20]] \
            if isinstance(conformance, list) else None
        """The Java worker's own list of the sheet's mismatches (constructors, return types, extra public
        methods); None from the Python worker, whose ``missing`` says it all."""
        self.calibrated = calibrated
        self.deadline = time.monotonic() + 10

    def left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TestTimeout()
        return left

    def raw(self, op: str, **fields: Any) -> Any:
        return self.channel.request(op, self.left(), **fields)

    def label(self, member: str) -> str:
        name = self.names.get(member) or member
        return {"__eq__": "==", "__str__": "str()"}.get(name, name + "()")

    def call(self, obj: Any, member: str, *args: Any) -> Any:
        if self.names.get(member) is None:
            owner = "Solver" if member in ("isSolvable", "moves", "solution") else "Board"
            spellings = " or ".join(c for m, cs in self.missing if m == member for c in cs)
            raise Fail(f"{owner} has no method {spellings}")
        return decode(self.raw("call", on=encode(obj), member=member, args=[encode(a) for a in args]))

    def new_board(self, grid: Any) -> Any:
        return decode(self.raw("new", cls="board", args=[encode(grid)]))

    def new_solver(self, board: Any) -> Any:
        return decode(self.raw("new", cls="solver", args=[encode(board)]))

    def keep(self, value: Any) -> Any:
        """A value left in the worker (an array the test changes after passing it to a constructor)."""
        return decode(self.raw("keep", value=value))

    def mutate(self, grid: Any) -> None:
        self.raw("mutate", on=encode(grid))

    def sizes(self, obj: Any, tiles: tuple[int, ...], n: int, boards: int) -> tuple[int, int]:
        """(the object's deep size, ``boards`` reference boards' deep size), both measured by the worker."""
        got = self.raw("sizes", on=encode(obj), tiles=list(tiles), n=n)
        student, reference = _ints(got, "student", "reference")
        return student, reference * boards

    def peak(self, tiles: tuple[int, ...], n: int, substitute: bool) -> tuple[int, int, Any, str]:
        """(reference peak, student peak, the solve's moves(), a problem seen from outside or "")."""
        self.peer.reset_peak()
        before = self.peer.rss()
        got = self.raw("peak", tiles=list(tiles), n=n, substitute=substitute)
        (student,) = _ints(got, "student")
        reference = int(self.calibrated.get(("peak", tuple(tiles), n), 0))
        if not reference:
            raise Fail("the reference solve's peak was not measured (a grader fault)")
        grew = self.peer.peak() - before
        problem = ""
        if self.peer.measures_peak and grew > RSS_FACTOR * max(student, 0) + RSS_SLACK:
            problem = (f"the worker's memory grew by {grew} bytes during the solve (read from outside), far more "
                       f"than the {student} bytes it reported: the measure was tampered with")
        return reference, student, decode(got.get("moves"), 1), problem

    def counted(self, tiles: tuple[int, ...], n: int, substitute: bool) -> tuple[dict[str, int], Any, Any, str]:
        """(counts, an equals() example or None, moves(), a problem seen from outside or "") of one solve."""
        cpu = self.peer.cpu()
        got = self.raw("counted", tiles=list(tiles), n=n, substitute=substitute)
        spent = self.peer.cpu() - cpu
        if not isinstance(got, dict) or not isinstance(got.get("counts"), dict):
            raise Fail("the worker's counts were not a table of numbers")
        counts = {k: int(v) for k, v in got["counts"].items() if isinstance(v, int) and not isinstance(v, bool)}
        for key in ("init", "equals", "manhattan", "hamming", "tostring", "far_equals", "queue"):
            counts.setdefault(key, 0)
        far = got.get("far")
        if far is not None and not (isinstance(far, list) and len(far) == 3):
            far = None
        reference = self.calibrated.get((tuple(tiles), n))
        problem = ""
        if reference is not None and self.peer.measures_cpu and spent > CPU_FACTOR * reference + CPU_SLACK:
            problem = (f"the solve took {spent:.2f} s of CPU (read from outside), more than {CPU_FACTOR:g}x the "
                       f"reference A*'s {reference:.2f} s + {CPU_SLACK:g} s; its counts cannot be believed")
        return counts, far, decode(got.get("moves"), 1), problem


def _ints(got: Any, *keys: str) -> tuple[int, ...]:
    if not isinstance(got, dict) or not all(isinstance(got.get(k), int) for k in keys):
        raise Fail("the worker's measure was not a number")
    return tuple(int(got[k]) for k in keys)


__all__ = ["RemoteApi", "RemoteRaised", "TestTimeout"]
