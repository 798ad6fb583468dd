"""The reference Board, its model and the sheet's A*: only in a worker that runs the Solver tests.

Part of the Python API worker (``apiw_worker.py``). The Board tests' worker never has this module
(the judge copies it only into the Solver tests' runs), so a student's Board cannot borrow it.
Its counts are the worker's measures: the judge believes them only as ``docs/api-tests.md`` says.
"""

import heapq
import itertools

from apih_core import rows


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
