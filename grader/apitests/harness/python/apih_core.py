"""The harness's core: the reference model of a board, the reference Board, and the plumbing.

Part of the Python API harness (``apih_main.py`` says how it runs). Stdlib only: it runs
under the student's interpreter inside the sandbox.
"""

import gc
import heapq
import itertools
import json
import os
import signal
import sys
import traceback

OUT = [None]
NONCE = [""]
MAX_MESSAGE = 1500

class Timeout(BaseException):
    """Raised by the timer; a BaseException so that a student's ``except Exception`` cannot swallow it."""


class Fail(Exception):
    """A failed check: the message is what the student reads."""


def emit(name, passed, message):
    line = json.dumps({"name": name, "passed": bool(passed), "message": message[:MAX_MESSAGE]})
    OUT[0].write("@@api " + NONCE[0] + " " + line + "\n")
    OUT[0].flush()


# ----------------------------------------------------------------------------- reference model
def goal(n):
    return tuple(range(1, n * n)) + (0,)


def ref_hamming(tiles, n):
    return sum(1 for i, t in enumerate(tiles) if t and t != i + 1)


def ref_manhattan(tiles, n):
    total = 0
    for i, t in enumerate(tiles):
        if t:
            total += abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n)
    return total


def ref_neighbors(tiles, n):
    blank = tiles.index(0)
    r, c = divmod(blank, n)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            t = list(tiles)
            t[blank], t[rr * n + cc] = t[rr * n + cc], 0
            out.append(tuple(t))
    return out


def solvable(tiles, n):
    seq = [t for t in tiles if t]
    inv = 0
    for i in range(len(seq)):
        for j in range(i + 1, len(seq)):
            if seq[i] > seq[j]:
                inv += 1
    if n % 2:
        return inv % 2 == 0
    return (inv + tiles.index(0) // n) % 2 == 1


def rows(tiles, n):
    return [list(tiles[r * n:(r + 1) * n]) for r in range(n)]


def show(tiles, n):
    """A small board as the sheet prints it, for messages; big ones are named by size and seed."""
    if n > 5:
        return "a %dx%d board" % (n, n)
    return "\n".join(" ".join("%2d" % t for t in tiles[r * n:(r + 1) * n]) for r in range(n))


def one_line(tiles, n):
    if n > 5:
        return "%dx%d board" % (n, n)
    return " / ".join(" ".join(str(t) for t in tiles[r * n:(r + 1) * n]) for r in range(n))


class RefBoard(object):
    """The reference Board, substituted for the student's when the Solver is tested (as Princeton does).

    It answers to every spelling the sheets use and counts the calls the operation-count
    tests look at.
    """

    __slots__ = ("t", "n", "__weakref__")
    counts = {"init": 0, "equals": 0, "manhattan": 0, "hamming": 0, "tostring": 0, "far_equals": 0, "queue": 0}
    far_example = [None]

    def __init__(self, grid):
        RefBoard.counts["init"] += 1
        if grid is None:
            raise ValueError("Board(None)")
        self.n = len(grid)
        self.t = tuple(v for row in grid for v in row)

    @classmethod
    def of(cls, tiles, n):
        return cls(rows(tiles, n))

    def dimension(self):
        return self.n

    size = dimension

    def hamming(self):
        RefBoard.counts["hamming"] += 1
        return ref_hamming(self.t, self.n)

    def manhattan(self):
        RefBoard.counts["manhattan"] += 1
        return ref_manhattan(self.t, self.n)

    h = manhattan

    def isGoal(self):
        return self.t == goal(self.n)

    is_goal = is_completed = isGoal

    def neighbors(self):
        return [RefBoard.of(t, self.n) for t in ref_neighbors(self.t, self.n)]

    get_adjacents = neighbours = get_neighbors = neighbors

    def twin(self):
        t = list(self.t)
        i, j = [k for k in range(len(t)) if t[k]][:2]
        t[i], t[j] = t[j], t[i]
        return RefBoard.of(t, self.n)

    def equals(self, other):
        RefBoard.counts["equals"] += 1
        if not isinstance(other, RefBoard):
            return False
        if other.t != self.t and other.n == self.n and not _near(self.t, other.t, self.n):
            RefBoard.counts["far_equals"] += 1
            RefBoard.far_example[0] = (self.t, other.t, self.n)
        return other.n == self.n and other.t == self.t

    __eq__ = equals

    def __ne__(self, other):
        return not self.equals(other)

    def __hash__(self):
        return hash(self.t)

    def __lt__(self, other):
        return self.t < other.t

    def toString(self):
        RefBoard.counts["tostring"] += 1
        return str(self.n) + "\n" + "\n".join(" ".join("%2d" % v for v in r) for r in rows(self.t, self.n)) + "\n"

    __str__ = __repr__ = to_string = toString


def _near(a, b, n):
    """Whether ``b`` is a neighbour of a neighbour of ``a`` (the "critical optimization" comparison).

    Two moves change at most three cells, so most boards are ruled out by counting differences.
    """
    differ = 0
    for x, y in zip(a, b):
        if x != y:
            differ += 1
            if differ > 3:
                return False
    return any(b in ref_neighbors(x, n) for x in ref_neighbors(a, n))


# ----------------------------------------------------------------------------- running tests
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


def parse_string(text, n, context):
    """The tiles a toString() shows: a line with n, then n rows of n numbers."""
    if not isinstance(text, str):
        raise Fail("%s: toString() returned %s, not a string" % (context, type(text).__name__))
    lines = [line for line in text.strip("\n").split("\n") if line.strip()]
    if not lines or lines[0].strip() != str(n):
        first = lines[0].strip()[:40] if lines else "nothing"
        raise Fail("%s: toString() must start with a line holding the size %d, found %r" % (context, n, first))
    if len(lines) != n + 1:
        raise Fail("%s: toString() must show %d rows after the size line, found %d" % (context, n, len(lines) - 1))
    tiles = []
    for number, line in enumerate(lines[1:], 1):
        parts = line.split()
        if len(parts) != n or not all(p.isdigit() for p in parts):
            raise Fail("%s: toString() row %d should hold %d numbers, found %r" % (context, number, n, line[:80]))
        tiles.extend(int(p) for p in parts)
    return tuple(tiles)


def ref_solve(tiles, n):
    """The sheet's A* on the reference Board: a search node per board, the critical optimization, the
    twin searched in step; its moves (-1 when the twin is solved first). The peak-memory test's yardstick.
    The reference Board's call counts are left as they were."""
    saved = dict(RefBoard.counts)
    try:
        counter = itertools.count()
        start = RefBoard.of(tiles, n)
        target = goal(n)
        heaps = [[(ref_manhattan(b.t, n), next(counter), 0, b, None)] for b in (start, start.twin())]
        while True:
            for k in (0, 1):
                node = heapq.heappop(heaps[k])
                _, _, moves, board, parent = node
                if board.t == target:
                    return moves if k == 0 else -1
                for child in board.neighbors():
                    if parent is not None and child.t == parent[3].t:
                        continue
                    heapq.heappush(heaps[k], (moves + 1 + ref_manhattan(child.t, n), next(counter), moves + 1,
                                              child, node))
    finally:
        RefBoard.counts.clear()
        RefBoard.counts.update(saved)


COUNTING_QUEUES = [False]
"""True while the timing tests count: the priority-queue wrappers below add to RefBoard.counts["queue"]."""


def count_priority_queues():
    """Count heapq's and queue.PriorityQueue's operations (inserts and removals) in RefBoard.counts["queue"]
    while COUNTING_QUEUES[0] is set. Installed before the student's modules are imported, so that a
    ``from heapq import heappush`` there binds the counting wrapper too; the wrappers call the originals."""
    import queue

    def counting(original, ops):
        def wrapper(*args, **kwargs):
            if COUNTING_QUEUES[0]:
                RefBoard.counts["queue"] += ops
            return original(*args, **kwargs)
        wrapper.__name__ = getattr(original, "__name__", "wrapper")
        wrapper.__doc__ = getattr(original, "__doc__", None)
        return wrapper

    for name, ops in (("heappush", 1), ("heappop", 1), ("heappushpop", 2), ("heapreplace", 2)):
        setattr(heapq, name, counting(getattr(heapq, name), ops))
    queue.PriorityQueue._put = counting(queue.PriorityQueue._put, 1)
    queue.PriorityQueue._get = counting(queue.PriorityQueue._get, 1)


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


def _short(value):
    text = repr(value)
    return text if len(text) < 120 else text[:117] + "..."
