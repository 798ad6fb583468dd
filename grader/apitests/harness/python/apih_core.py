"""The worker's plumbing: timers, exception descriptions, deep sizes and peaks. No reference Board here.

Part of the Python API worker (``apiw_worker.py``). Stdlib only: it runs under the student's
interpreter inside the sandbox.
"""

import gc
import os
import signal
import sys
import traceback


class Timeout(BaseException):
    """Raised by the timer; a BaseException so that a student's ``except Exception`` cannot swallow it."""


class Fail(Exception):
    """A failed check: the message is what the student reads."""


def rows(tiles, n):
    return [list(tiles[r * n:(r + 1) * n]) for r in range(n)]


class timer(object):
    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        def ring(signum, frame):
            raise Timeout()
        signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        return False


def _describe(exc):
    text = "%s: %s" % (type(exc).__name__, exc)
    tb = traceback.extract_tb(exc.__traceback__)
    student = [f for f in tb if not os.path.basename(f.filename).startswith("apih_")]
    if student:
        where = student[-1]
        text += " (at %s:%d)" % (os.path.basename(where.filename), where.lineno)
    return text[:600]


def traced_peak(action):
    """The most bytes Python held at once while ``action()`` ran (tracemalloc), beyond what it held before."""
    import tracemalloc
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class _SizeRef(object):
    __slots__ = ("tiles", "n")

    def __init__(self, tiles, n):
        self.tiles = tuple(tiles)
        self.n = n


def deep_size(obj):
    """Bytes reachable from ``obj``, each object once, not counting classes, modules and functions."""
    seen = set()
    stack = [obj]
    total = 0
    skip = (type, type(sys), type(deep_size), type(len))
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, skip):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total
