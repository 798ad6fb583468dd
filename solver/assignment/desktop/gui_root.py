"""Tk roots whose Tcl interpreter is deleted only in the thread that made it, never by a stray collection.

Tcl aborts the whole process ("Tcl_AsyncDelete: async handler deleted by the wrong thread", then
"Fatal Python error: Aborted") when an interpreter is deleted in another thread than its own, and
Python deletes a root's interpreter (its ``tk``, a ``_tkinter.tkapp``) as soon as the last object
holding it goes. A closed window's last holders are often widgets in reference cycles (a game's
old frame and its view, bound callbacks), which only the cyclic collector frees, and it runs in
whichever thread happens to allocate: a search's worker threads (:mod:`solver.search.parallel`),
the table builder's, a game's job. So a test run that had opened windows aborted, now and then,
in a later test's search threads.

So no interpreter is left to that collector: :func:`new_root` keeps a reference to each one it
makes, and :func:`release_closed`, called in the thread that made them (by :func:`new_root`
itself, and by the GUI tests after each test), collects garbage there and then drops the
interpreters that nothing else holds any more, which deletes them there. One still held
elsewhere (say by a failed test's traceback) stays kept until a later call or the end of the
process, whose last collection runs in the main thread: make roots in the main thread.
"""

from __future__ import annotations

import gc
import sys
import threading
import tkinter as tk

_lock = threading.Lock()
_kept: list[tuple[object, int]] = []
"""(interpreter, the ident of the thread that made it), for every root :func:`new_root` made that is not released."""


def new_root() -> tk.Tk:
    """``tkinter.Tk()`` (raising its ``TclError`` without a display), with its interpreter kept (see the module)."""
    release_closed()
    root = tk.Tk()
    with _lock:
        _kept.append((root.tk, threading.get_ident()))
    return root


def release_closed() -> int:
    """Delete, in this thread, the interpreters it made that only this module still holds; return how many it keeps.

    A window's interpreter is held by its root and by every widget and variable of it, so one
    that only :data:`_kept` holds belongs to a window that is closed and gone. Its garbage is
    collected here first, so its widgets and variables (whose ``__del__`` calls Tcl) go here too.
    """
    me = threading.get_ident()
    with _lock:
        if not any(owner == me for _, owner in _kept):
            return 0
    gc.collect()
    released = []
    with _lock:
        for i in reversed(range(len(_kept))):
            # two references: the tuple's in _kept, and getrefcount's argument
            if _kept[i][1] == me and sys.getrefcount(_kept[i][0]) == 2:
                released.append(_kept.pop(i))
        kept = sum(owner == me for _, owner in _kept)
    released.clear()  # the interpreters are deleted here, in their own thread
    return kept
