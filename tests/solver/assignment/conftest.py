"""Fixtures of the GUI tests: a private Xvfb display, and a game window on it."""

from __future__ import annotations

import os
import select
import subprocess
import sys
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
    from solver.assignment.desktop.gui_app import PuzzleApp
    from solver.assignment.desktop.gui_root import new_root

    root = new_root()
    window = PuzzleApp(root, size=3, seed=11, delay_ms=5)
    root.update()
    yield window
    root.destroy()


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """Once a test's arguments are gone, delete its closed windows here, in the thread that made them.

    Left to the cyclic collector, a window's widgets and variables would go in whichever thread
    allocates next, such as a later test's search threads: each variable's ``__del__`` then
    waits a second for a Tk main loop and fails (its interpreter, kept by
    :mod:`solver.assignment.desktop.gui_root`, is never deleted there).
    """
    gui_root = sys.modules.get("solver.assignment.desktop.gui_root")
    if gui_root is not None:
        gui_root.release_closed()
