"""Fixtures of the GUI tests: a private Xvfb display, and a game window on it."""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.support import require_tool


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """A private X display: Xvfb picks a free number and tells it through -displayfd.

    One for the whole session: a Tk window left open on a server that goes away ends the process.
    """
    xvfb = require_tool("Xvfb")
    read_end, write_end = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            if select.select([read_end], [], [], 1)[0]:
                chunk = os.read(read_end, 16)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            pytest.fail(f"Xvfb did not report a display number within 30 s (got {number!r})")
        yield f":{number.decode().strip()}"
    finally:
        os.close(read_end)
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def app(display: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DISPLAY", display)
    import tkinter

    from solver.assignment.desktop.gui_app import PuzzleApp

    root = tkinter.Tk()
    window = PuzzleApp(root, size=3, seed=11, delay_ms=5)
    root.update()
    yield window
    root.destroy()
