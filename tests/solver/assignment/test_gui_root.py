"""A closed window's Tcl interpreter is deleted in the thread that made it, whichever thread collects its garbage.

Tcl aborts the process when an interpreter is deleted in another thread, and a closed window's
last references often sit in cycles that the collector frees in whichever thread allocates: a
test run aborted in a later test's search threads (see :mod:`solver.assignment.desktop.gui_root`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tkinter as tk
import weakref

import pytest

from solver.assignment.desktop.gui_root import new_root, release_closed
from tests.support import REPO

pytestmark = pytest.mark.gui

COLLECTED_IN_A_WORKER = """
import gc
import tkinter as tk
from concurrent.futures import ThreadPoolExecutor

from solver.assignment.desktop import gui_root

root = gui_root.new_root()
frame = tk.Frame(root)
frame.pack()
root.update()
frame.again = frame.pack  # a cycle holding the root, as a game's replaced frame and its callbacks
root.destroy()
del root, frame
with ThreadPoolExecutor(1, thread_name_prefix="idastar") as pool:
    print(pool.submit(gc.collect).result() > 0, flush=True)  # the window's garbage, freed in a worker
print(gui_root.release_closed(), flush=True)  # its interpreter, deleted here
"""


def test_a_closed_windows_garbage_collected_in_a_worker_thread_leaves_the_interpreter_to_its_own(
        display: str) -> None:
    # a subprocess: without the guard, Tcl aborts the whole process (SIGABRT, "Tcl_AsyncDelete: async
    # handler deleted by the wrong thread"), which here would be the pytest worker
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", COLLECTED_IN_A_WORKER], capture_output=True, text=True, env=env,
                          timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "0"]), done.stderr


def test_release_deletes_closed_windows_once_nothing_else_holds_them(display: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", display)
    before = release_closed()  # a failed earlier test's window may still be held
    root = new_root()
    assert release_closed() == before + 1  # an open window is kept, and stays usable
    frame = tk.Frame(root)
    frame.again = frame.pack  # only the collector frees this frame, and the root it holds
    root.update()
    root.destroy()
    gone = weakref.ref(root)
    held = [frame]
    del root, frame
    assert release_closed() == before + 1 and gone() is not None  # still held here
    held.clear()
    assert release_closed() == before and gone() is None  # freed by this thread's collection, deleted here
