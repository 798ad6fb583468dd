"""IDA* with each large iteration shared among threads, giving exactly the sequential answer.

An 80-move 15-puzzle spends minutes of CPU in its last few iterations, and a grading machine
has more than one core. Both kernels (numba's :func:`solver.search.kernel._search` and the native
4×4 one, :mod:`solver.search.native`) release the GIL, so threads share the pattern databases
instead of copying them into processes.

How one iteration (one cost bound) is shared:

1. A shallow pass, the same kernel stopping at a split depth, lists the nodes it accepts
   there ("entries") in the order a depth-first search meets them, with its counts so far.
2. Worker threads take entries in that order from a shared counter and search each one's
   subtree under the same bound.
3. The answer is read in entry order: the first entry whose subtree holds a goal gives the
   path, and the counts are the shallow pass's up to that entry plus the subtrees before it.

Every part gets the route the previous iteration remembered, and the parts' best routes are
read in entry order too, so the next iteration tries the route the sequential search would.
That is node for node what the sequential search does, so the path, the expanded and
generated counts and the node-limit outcome do not depend on the number of threads or on
timing. Work done past the winning entry is discarded (and stopped as soon as it is known
to be unneeded). Small iterations run on one thread: splitting them costs more than it saves.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from solver.search.dual import Side, race, sides
from solver.search.heuristic import Heuristic
from solver.search.move_pruning import pruning_table
from solver.search.native import NativeKernel, native_kernel, remember_route, route_arrays
from solver.search.status import FOUND, FULL, LIMIT, MAX_DEPTH, NOT_FOUND, TOO_DEEP

SPLIT_FROM = 400_000
"""An iteration expanding at least this many nodes makes the next one worth sharing."""
ENTRIES_PER_THREAD = 128
"""Entries wanted per thread: enough that uneven subtrees even out, few enough to list cheaply."""
MAX_ENTRIES = 1 << 12


@dataclass(frozen=True)
class Outcome:
    """What the kernel reports for a whole search (see :func:`solver.search.kernel._search`)."""

    status: int  # FOUND, LIMIT or TOO_DEEP
    expanded: int
    generated: int
    length: int  # moves of the path, when FOUND
    bound: int  # the last bound tried: a lower bound on the optimum
    path: np.ndarray  # the blank's cell at each depth, ``path[0..length]``


def threads_available() -> int:
    """Threads to search with: ``$NPUZZLE_THREADS`` if set, else the CPUs this process may use."""
    wanted = os.environ.get("NPUZZLE_THREADS", "").strip()
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Kernel:
    """The numba kernel with one board size and heuristic bound in."""

    def __init__(self, n: int, heuristic: Heuristic) -> None:
        from solver.search.kernel import _search  # numba: imported only when this kernel runs

        self.search, self.n, self.h = _search, n, heuristic
        self.no_entries = np.zeros((1, 1), dtype=np.int64)
        self.no_counts = np.zeros((1, 4), dtype=np.int64)

    def __call__(self, board: np.ndarray, path: np.ndarray, counters: np.ndarray, limit: int, d0: int = 0,
                 bound: int = -1, single: bool = True, collect_depth: int = 0,
                 entries: np.ndarray | None = None, counts: np.ndarray | None = None,
                 pv: np.ndarray | None = None, best: np.ndarray | None = None, prune: np.ndarray | None = None) -> int:
        h = self.h
        pv, best = route_arrays(path, pv, best)
        return int(self.search(board, self.n, h.kind, limit, h.pdb, h.offset, h.sets, h.slot, h.weight, h.cells,
                           h.dense, h.members, path, counters, d0, bound, single, collect_depth,
                           self.no_entries if entries is None else entries,
                           self.no_counts if counts is None else counts, pv, best,
                           pruning_table() if prune is None else prune))


def kernel_for(n: int, heuristic: Heuristic) -> NativeKernel | _Kernel:
    """The native kernel where it runs this heuristic (see :mod:`solver.search.native`), else numba's.

    Both give the same path and counts; ``$NPUZZLE_KERNEL`` can force either.
    """
    native = native_kernel(n, heuristic)
    return native if native is not None else _Kernel(n, heuristic)


def search(tiles: np.ndarray, n: int, heuristic: Heuristic, node_limit: int, threads: int,
           route_first: bool = True, pruned: bool = True, dual: bool = True) -> Outcome:
    """IDA* from ``tiles`` (left as given) with up to ``threads`` threads; see the module docstring.

    A board with its blank in a corner is searched from whichever end looks cheaper after a few
    small iterations of each (:mod:`solver.search.dual`); the path returned is the board's own.
    For benchmarks, the search as it was before three of its parts: ``route_first=False`` searches
    every node's children in plain direction order, leaving out the route each iteration
    remembers for the next; ``pruned=False`` skips only the move back, not every redundant route
    (:mod:`solver.search.move_pruning`); ``dual=False`` searches from the board only.
    """
    kernel = kernel_for(n, heuristic)
    prune = pruning_table(pruned)
    pair = sides(kernel, tiles, n, route_first, dual)
    if len(pair) == 1:
        side, spent_e, spent_g = pair[0], 0, 0
    else:
        end = race(kernel, pair, node_limit, prune)
        if end.side is None:
            path = end.path if end.path is not None else np.zeros(MAX_DEPTH + 1, dtype=np.int64)
            return Outcome(end.status, end.expanded, end.generated, end.length, end.bound, path)
        side, spent_e, spent_g = end.side, end.expanded, end.generated
    outcome = _search_side(kernel, side, node_limit - spent_e, threads, prune)
    expanded = spent_e + outcome.expanded if outcome.status != LIMIT else node_limit + 1
    path = side.original_path(outcome.path, outcome.length) if outcome.status == FOUND else outcome.path
    return Outcome(outcome.status, expanded, spent_g + outcome.generated, outcome.length, outcome.bound, path)


def _search_side(kernel: NativeKernel | _Kernel, side: Side, node_limit: int, threads: int,
                 prune: np.ndarray) -> Outcome:
    """IDA* on one side's board from the bound its iterations reached (see :func:`search`)."""
    tiles, pv, best = side.tiles, side.pv, side.best
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    counters = np.zeros(5, dtype=np.int64)
    if threads <= 1:
        status = kernel(tiles, path, counters, node_limit, bound=side.bound, single=False, pv=pv, best=best,
                        prune=prune)
        return Outcome(status, int(counters[0]), int(counters[1]), int(counters[2]), int(counters[3]), path)
    expanded = generated = 0
    bound, last, depth = side.bound, side.last, 2
    with ThreadPoolExecutor(threads, thread_name_prefix="idastar") as pool:
        while True:
            remaining = node_limit - expanded
            if last < SPLIT_FROM or bound > MAX_DEPTH:
                status = kernel(tiles, path, counters, remaining, bound=bound, pv=pv, best=best, prune=prune)
                e, g, length, reached = (int(x) for x in counters[:4])
                found_path = path
            else:
                split = _Split(kernel, tiles, bound, remaining, threads, depth, pv, prune)
                status, e, g, length, reached, found_path = split.run(pool)
                depth, best = split.depth, split.best
            if status == LIMIT:
                return Outcome(LIMIT, node_limit + 1, generated + g, 0, bound if bound >= 0 else reached, path)
            expanded, generated = expanded + e, generated + g
            if status != NOT_FOUND:
                return Outcome(status, expanded, generated, length, reached, found_path)
            bound, last = reached, e
            remember_route(pv, best)


def _better(best: np.ndarray, than: np.ndarray) -> bool:
    """Whether ``best`` (a kernel's, see :func:`solver.search.kernel._search`) beats ``than``: lower h, then deeper."""
    return best[0] >= 0 and (than[0] < 0 or best[0] < than[0] or (best[0] == than[0] and best[1] > than[1]))


class _Split:
    """One iteration shared among threads."""

    def __init__(self, kernel: NativeKernel | _Kernel, tiles: np.ndarray, bound: int, remaining: int, threads: int,
                 depth: int, pv: np.ndarray, prune: np.ndarray) -> None:
        self.kernel, self.tiles, self.bound, self.remaining = kernel, tiles, bound, remaining
        self.threads, self.depth = threads, max(1, min(depth, bound))
        self.pv, self.prune = pv, prune  # read by every part
        self.best = np.zeros_like(pv)  # the iteration's, as the sequential search would have found it
        self.lock = threading.Lock()

    def _list_entries(self) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """The shallowest split (from the last one) giving enough entries: (status, counters, entries, counts).

        Never FULL: a split too deep for the buffer steps back a level and takes what that one
        lists (at depth 1 there are at most four entries).
        """
        counters = np.zeros(5, dtype=np.int64)
        path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        wanted = ENTRIES_PER_THREAD * self.threads
        while True:
            entries = np.zeros((MAX_ENTRIES, self.depth + 1), dtype=np.int64)
            counts = np.zeros((MAX_ENTRIES, 4), dtype=np.int64)
            status = self.kernel(self.tiles, path, counters, self.remaining, bound=self.bound,
                                 collect_depth=self.depth, entries=entries, counts=counts, pv=self.pv, best=self.best,
                                 prune=self.prune)
            found = int(counters[4])
            if status == FULL:
                # going deeper again would only fill the buffer again (many threads, few entries)
                self.depth, wanted = self.depth - 1, 0
                continue
            if status != NOT_FOUND or found >= wanted or self.depth >= self.bound or (
                    found and counts[found - 1, 3]):
                return status, counters, entries[:found], counts[:found]
            self.depth += 1

    def run(self, pool: ThreadPoolExecutor) -> tuple[int, int, int, int, int, np.ndarray]:
        """(status, expanded, generated, length, bound or next bound, path) for this iteration."""
        status, shallow, entries, counts = self._list_entries()
        if status != NOT_FOUND or len(entries) == 0:
            return status, int(shallow[0]), int(shallow[1]), 0, int(shallow[3]), np.zeros(1, dtype=np.int64)
        total = len(entries)
        self.entries, self.counts = entries, counts
        self.status = np.full(total, -1, dtype=np.int64)
        self.sub = np.zeros((total, 3), dtype=np.int64)  # expanded, generated, next bound
        self.paths: dict[int, np.ndarray] = {}
        # the parts' best in entry order: a tie goes to the earlier entry, as the sequential search meets it first;
        # the shallow pass's (depth at most the split's) never ties with a subtree's (deeper)
        self.sub_best, self.sub_best_entry = np.zeros_like(self.best), -1
        self.sub_best[0] = -1
        self.next, self.stop, self.prefix, self.prefix_expanded = 0, total, 0, 0
        futures = [pool.submit(self._work) for _ in range(self.threads)]
        try:
            for future in futures:
                future.result()
        except BaseException:  # Ctrl-C or a fault: let the workers finish their current subtree and quit
            with self.lock:
                self.stop = -1
            raise
        return self._answer(shallow)

    def _work(self) -> None:
        board = self.tiles.copy()
        path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        counters = np.zeros(5, dtype=np.int64)
        best = np.zeros_like(self.best)
        while True:
            with self.lock:
                i = self.next
                if i >= self.stop:
                    return
                self.next += 1
            d0 = int(self.counts[i, 2])
            path[:d0 + 1] = self.entries[i, :d0 + 1]
            limit = self.remaining - int(self.counts[i, 0])
            status = self.kernel(board, path, counters, limit, d0=d0, bound=self.bound, pv=self.pv, best=best,
                                 prune=self.prune)
            with self.lock:
                if _better(best, self.sub_best) or (best[0] == self.sub_best[0] and best[1] == self.sub_best[1]
                                                    and i < self.sub_best_entry):
                    self.sub_best[:], self.sub_best_entry = best, i
                self.status[i] = status
                self.sub[i] = counters[0], counters[1], counters[3]
                if status == FOUND:
                    self.paths[i] = path[:int(counters[2]) + 1].copy()
                if status != NOT_FOUND:
                    self.stop = min(self.stop, i + 1)
                # once the entries done in order already exceed the budget, nothing later can matter
                while self.prefix < len(self.status) and self.status[self.prefix] >= 0:
                    self.prefix_expanded += int(self.sub[self.prefix, 0])
                    self.prefix += 1
                if self.prefix and int(self.counts[self.prefix - 1, 0]) + self.prefix_expanded > self.remaining:
                    self.stop = min(self.stop, self.prefix)

    def _answer(self, shallow: np.ndarray) -> tuple[int, int, int, int, int, np.ndarray]:
        """Read the entries in order, as the sequential search would have met them."""
        before_e = before_g = 0
        next_bound = int(shallow[3])
        for i in range(len(self.status)):
            status = int(self.status[i])
            expanded = int(self.counts[i, 0]) + before_e + int(self.sub[i, 0])
            if status < 0 or status == LIMIT or expanded > self.remaining:
                return LIMIT, expanded, 0, 0, self.bound, np.zeros(1, dtype=np.int64)
            if status == FOUND:
                generated = int(self.counts[i, 1]) + before_g + int(self.sub[i, 1])
                path = self.paths[i]
                return FOUND, expanded, generated, len(path) - 1, self.bound, path
            if status == TOO_DEEP:  # not reachable: the bound was checked before splitting
                return TOO_DEEP, expanded, 0, 0, self.bound, np.zeros(1, dtype=np.int64)
            before_e += int(self.sub[i, 0])
            before_g += int(self.sub[i, 1])
            next_bound = min(next_bound, int(self.sub[i, 2]))
        if _better(self.sub_best, self.best):
            self.best[:] = self.sub_best
        expanded = int(shallow[0]) + before_e
        if expanded > self.remaining:
            return LIMIT, expanded, 0, 0, self.bound, np.zeros(1, dtype=np.int64)
        return NOT_FOUND, expanded, int(shallow[1]) + before_g, 0, next_bound, np.zeros(1, dtype=np.int64)
