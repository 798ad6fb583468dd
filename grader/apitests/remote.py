"""The judge's end of the worker's socket: calls out, data back, nothing of the student's code in here.

A :class:`Channel` sends one JSON request per line and reads one reply, at most
:data:`MAX_REPLY` bytes and within the call's deadline. Replies are decoded into plain data:
ints, bools, strings, None, :class:`RemoteList` (a list the student's method returned, with its
type's name), :class:`Handle` (an object left in the worker), :class:`RefTiles` (a reference
Board the student's Solver handed back: only its tiles). A reply that is late, too long, not
JSON, or shaped wrongly ends the worker (:class:`WorkerGone`): the test it was in fails, and the
judge starts a new worker for the rest.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_REPLY = 4_000_000
"""The longest reply line (bytes): a 100x100 board's toString() is ~40 KB, a 31-move path's handles ~2 KB."""
GRACE = 2.0
"""Seconds past a call's deadline the judge waits for the worker's own watchdog before giving up on it."""


class WorkerGone(Exception):
    """The worker died, hung, flooded or broke the protocol during a call: the message says which."""


class RemoteRaised(Exception):
    """The student's code raised: ``type_name`` is the exception's class name, ``text`` describes it."""

    def __init__(self, type_name: str, text: str) -> None:
        super().__init__(text)
        self.type_name = type_name
        self.text = text


@dataclass(frozen=True)
class Handle:
    """An object the worker keeps (a Board, a Solver, anything else a method returned)."""

    key: int
    type_name: str


@dataclass(frozen=True)
class RefTiles:
    """A reference Board the student's Solver returned (the Board substitution): only its tiles reach here."""

    tiles: tuple[int, ...]
    n: int
    type_name: str = "RefBoard"


@dataclass
class RemoteList:
    """A list, tuple or other iterable a method returned, already read out by the worker."""

    items: list[Any] = field(default_factory=list)
    type_name: str = "list"

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def decode(value: Any, depth: int = 0) -> Any:
    """A reply's value as the judge's data; raises WorkerGone on a shape no honest worker sends."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, dict):
        if isinstance(value.get("h"), int) and isinstance(value.get("type"), str):
            return Handle(value["h"], value["type"][:80])
        if "tiles" in value and isinstance(value.get("n"), int) and isinstance(value["tiles"], list) \
                and all(isinstance(t, int) and not isinstance(t, bool) for t in value["tiles"]):
            return RefTiles(tuple(value["tiles"]), value["n"])
        if isinstance(value.get("float"), str):
            try:
                return float(value["float"])
            except ValueError:
                raise WorkerGone("the worker sent a float that is not one") from None
        if depth == 0 and isinstance(value.get("list"), list):
            return RemoteList([decode(v, 1) for v in value["list"]], str(value.get("type", "list"))[:80])
    raise WorkerGone(f"the worker answered with something no method returns: {str(value)[:80]}")


def encode(value: Any) -> Any:
    """An argument for the worker: handles by key, reference boards by tiles, data as itself."""
    if isinstance(value, Handle):
        return {"h": value.key}
    if isinstance(value, RefTiles):
        return {"ref": list(value.tiles), "n": value.n}
    return value


class Channel:
    """One connected worker: ``call`` is a blocking request/reply under a deadline."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.buffer = b""
        self.calls = 0

    def request(self, op: str, seconds: float, **fields: Any) -> Any:
        """The reply's value (raw JSON), RemoteRaised for the student's exception, WorkerGone otherwise."""
        self.calls += 1
        line = json.dumps({"op": op, "seconds": max(0.05, seconds), **fields}).encode() + b"\n"
        try:
            self.conn.settimeout(max(0.05, seconds) + GRACE)
            self.conn.sendall(line)
            reply = self._line(time.monotonic() + max(0.05, seconds) + GRACE)
        except OSError as exc:  # socket.timeout is an OSError
            raise WorkerGone(f"the worker stopped answering ({type(exc).__name__})") from None
        try:
            entry = json.loads(reply)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise WorkerGone("the worker's answer was not JSON") from None
        if isinstance(entry, dict) and "ok" in entry:
            return entry["ok"]
        if isinstance(entry, dict) and isinstance(entry.get("raised"), str) and isinstance(entry.get("text"), str):
            raise RemoteRaised(entry["raised"][:80], entry["text"][:600])
        raise WorkerGone("the worker's answer had no value and no exception")

    def _line(self, deadline: float) -> bytes:
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError()
            self.conn.settimeout(left)
            chunk = self.conn.recv(1 << 16)
            if not chunk:
                raise WorkerGone("the worker ended during this call (did the code call exit()?)")
            self.buffer += chunk
            if len(self.buffer) > MAX_REPLY:
                raise WorkerGone(f"the worker's answer was longer than {MAX_REPLY} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def close(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass
