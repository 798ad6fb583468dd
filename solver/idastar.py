"""IDA*: one compiled search for every heuristic, from Hamming to additive pattern databases.

The search runs in a numba-compiled kernel over a flat array of tiles, with an explicit
stack instead of recursion. Every heuristic is maintained incrementally as tiles move:
Hamming and Manhattan by the moved tile's change, linear conflict by recomputing the two
rows or columns the move touches, and pattern databases by updating the moved tile's
pattern index (and its mirror image's, for the reflected lookup) and reading one 4-bit entry.
There is no slow Python copy of this search: ``idastar(board, "manhattan")`` and the
pattern-database solver are the same code with a different ``kind``.

Importing this module imports numpy and numba (about 0.3 s) and, on the very first run on a
machine, compiles the kernel (a few seconds; then cached by numba on disk). Solving a 3×3
board never comes here (see :mod:`solver.exact`).

Determinism: children are tried in UP, DOWN, LEFT, RIGHT order (the blank's direction), the
move back to the parent is skipped, and the first path found within the final bound is
returned, so the same board always gives the same path.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search import SearchResult, unsolvable_result

HAMMING, MANHATTAN, LINEAR_CONFLICT, PDB, PDB_LC = 0, 1, 2, 3, 4
KINDS = {"hamming": HAMMING, "manhattan": MANHATTAN, "linear-conflict": LINEAR_CONFLICT}
"""Heuristics the plain ``idastar`` algorithm accepts, by the names of :data:`solver.search.HEURISTICS`."""

FOUND, LIMIT, TOO_DEEP = 0, 1, 2
MAX_DEPTH = 1000
"""Deepest bound the kernel's fixed stack allows; far beyond any board it could finish."""
_NO_LIMIT = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Heuristic:
    """What the kernel needs to evaluate a heuristic on an N×N board.

    For pattern databases (see :mod:`solver.pdb`): pattern ``p``'s table starts at byte
    ``offset[p]`` of ``pdb`` and holds one 4-bit entry per index, the pairs of moves the
    pattern needs beyond its tiles' Manhattan distance. Tile ``t`` adds ``weight[t] * cell``
    to the index of pattern ``pattern[t]``. In the board reflected about the main diagonal
    (``mirror[cell]``), tile ``t`` becomes the tile ``mirror_tile(t)``, which adds
    ``mirror_weight[t] * mirror[cell]`` to pattern ``mirror_pattern[t]``'s index: the
    reflected lookup reads the same tables.
    """

    name: str
    kind: int
    pdb: np.ndarray
    offset: np.ndarray
    pattern: np.ndarray
    weight: np.ndarray
    mirror_pattern: np.ndarray
    mirror_weight: np.ndarray
    mirror: np.ndarray
    reflect: bool


def simple_heuristic(n: int, name: str) -> Heuristic:
    """Hamming, Manhattan or linear conflict for N×N (no tables)."""
    try:
        kind = KINDS[name]
    except KeyError:
        raise ValueError(f"unknown heuristic {name!r} for idastar; choose one of {', '.join(KINDS)}") from None
    one = np.zeros(1, dtype=np.int64)
    cells = np.zeros(n * n, dtype=np.int64)
    return Heuristic(name, kind, np.zeros(1, dtype=np.uint8), one, cells, cells, cells, cells,
                     np.arange(n * n, dtype=np.int64), False)


# --------------------------------------------------------------------------- the kernel
@njit(cache=True, inline="always")
def _extra(pdb, offset, index):
    """Entry ``index`` of the 4-bit table starting at byte ``offset``."""
    return (np.int64(pdb[offset + (index >> 1)]) >> ((index & 1) << 2)) & 15


@njit(cache=True)
def _line_cost(board, n, line, is_row, piles):
    """Linear-conflict extra of one row or column: 2 × (tiles in their goal line − LIS of their goal order)."""
    m = 0
    count = 0
    for j in range(n):
        pos = line * n + j if is_row else j * n + line
        t = board[pos]
        if t == 0:
            continue
        goal_row = (t - 1) // n
        goal_col = (t - 1) % n
        if is_row:
            if goal_row != line:
                continue
            key = goal_col
        else:
            if goal_col != line:
                continue
            key = goal_row
        count += 1
        lo = 0
        hi = m
        while lo < hi:
            mid = (lo + hi) >> 1
            if piles[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        piles[lo] = key
        if lo == m:
            m += 1
    return 2 * (count - m)


@njit(cache=True)
def _search(board, n, kind, node_limit, pdb, offset, pattern, weight, mpattern, mweight, mirror, reflect,
            path, counters):
    """IDA* from ``board`` (modified during the search, restored at the end). Returns FOUND, LIMIT or TOO_DEEP.

    ``path[0..L]`` receives the blank's cell at each depth; ``counters`` receives expanded,
    generated, the solution length and the last bound. A child is first judged on
    Manhattan alone, then on the pattern databases, then on their reflection, so most
    pruned children cost no table lookup at all.
    """
    nn = n * n
    depth_cap = path.shape[0] - 1
    nbr = np.full(nn * 4, -1, dtype=np.int64)
    for p in range(nn):
        r = p // n
        c = p % n
        if r > 0:
            nbr[p * 4] = p - n
        if r < n - 1:
            nbr[p * 4 + 1] = p + n
        if c > 0:
            nbr[p * 4 + 2] = p - 1
        if c < n - 1:
            nbr[p * 4 + 3] = p + 1
    md = np.zeros(nn * nn, dtype=np.int64)
    for t in range(1, nn):
        for p in range(nn):
            md[t * nn + p] = abs(p // n - (t - 1) // n) + abs(p % n - (t - 1) % n)
    piles = np.zeros(n, dtype=np.int64)
    use_lc = kind == 2 or kind == 4
    use_pdb = kind == 3 or kind == 4

    # heuristic state at the root
    where = np.zeros(nn, dtype=np.int64)
    ham = 0
    man = 0
    for p in range(nn):
        t = board[p]
        where[t] = p
        if t != 0:
            if t != p + 1:
                ham += 1
            man += md[t * nn + p]
    blank = where[0]
    lc_row = np.zeros(n, dtype=np.int64)
    lc_col = np.zeros(n, dtype=np.int64)
    lc = 0
    if use_lc:
        for line in range(n):
            lc_row[line] = _line_cost(board, n, line, True, piles)
            lc_col[line] = _line_cost(board, n, line, False, piles)
            lc += lc_row[line] + lc_col[line]
    npat = offset.shape[0]
    pidx = np.zeros(npat, dtype=np.int64)
    ridx = np.zeros(npat, dtype=np.int64)
    ev = np.zeros(npat, dtype=np.int64)
    rv = np.zeros(npat, dtype=np.int64)
    es = 0
    rs = 0
    if use_pdb:
        for p in range(nn):
            t = board[p]
            if t != 0:
                pidx[pattern[t]] += weight[t] * p
                ridx[mpattern[t]] += mweight[t] * mirror[p]
        for i in range(npat):
            ev[i] = _extra(pdb, offset[i], pidx[i])
            es += ev[i]
            if reflect:
                rv[i] = _extra(pdb, offset[i], ridx[i])
                rs += rv[i]

    # per-depth saved state, restored when the search backs out of a move
    nxt = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_ham = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_man = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_lc = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_l1 = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_l2 = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_ev = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_rv = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_es = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_rs = np.zeros(depth_cap + 1, dtype=np.int64)

    h0 = ham
    if kind == 1:
        h0 = man
    elif kind == 2:
        h0 = man + lc
    elif use_pdb:
        best = es if es >= rs else rs
        h0 = man + 2 * best
        if kind == 4 and man + lc > h0:
            h0 = man + lc
    expanded = 0
    generated = 0
    bound = h0
    path[0] = blank
    while True:
        counters[3] = bound
        if h0 == 0:
            counters[0] = expanded
            counters[1] = generated
            counters[2] = 0
            return FOUND
        if bound > depth_cap:
            counters[0] = expanded
            counters[1] = generated
            return TOO_DEEP
        next_bound = 1 << 40
        d = 0
        nxt[0] = 0
        expanded += 1
        if expanded > node_limit:
            counters[0] = expanded
            counters[1] = generated
            return LIMIT
        while True:
            b = path[d]
            k = nxt[d]
            if k == 4:
                if d == 0:
                    break
                # back out of the move that led here: the tile returns from path[d-1] to b
                src = b
                dst = path[d - 1]
                t = board[dst]
                board[src] = t
                board[dst] = 0
                ham = sv_ham[d]
                man = sv_man[d]
                if use_lc:
                    lc = sv_lc[d]
                    if src - dst == n or dst - src == n:
                        lc_row[src // n] = sv_l1[d]
                        lc_row[dst // n] = sv_l2[d]
                    else:
                        lc_col[src % n] = sv_l1[d]
                        lc_col[dst % n] = sv_l2[d]
                if use_pdb:
                    i = pattern[t]
                    pidx[i] -= (dst - src) * weight[t]
                    ev[i] = sv_ev[d]
                    es = sv_es[d]
                    if reflect:
                        j = mpattern[t]
                        ridx[j] -= (mirror[dst] - mirror[src]) * mweight[t]
                        rv[j] = sv_rv[d]
                        rs = sv_rs[d]
                d -= 1
                continue
            nxt[d] = k + 1
            nb = nbr[b * 4 + k]
            if nb < 0 or (d > 0 and nb == path[d - 1]):
                continue
            generated += 1
            # the tile on nb slides into the blank's cell b; tentatively, until the child is accepted
            t = board[nb]
            src = nb
            dst = b
            board[dst] = t
            board[src] = 0
            man2 = man + md[t * nn + dst] - md[t * nn + src]
            ham2 = ham
            if kind == 0:
                if src == t - 1:
                    ham2 += 1
                elif dst == t - 1:
                    ham2 -= 1
            h = ham2 if kind == 0 else man2
            vertical = src - dst == n or dst - src == n
            f = d + 1 + h
            e2 = 0
            es2 = es
            r2 = 0
            rs2 = rs
            lc2 = lc
            la = 0
            lb = 0
            if use_pdb and f <= bound:
                i = pattern[t]
                e2 = _extra(pdb, offset[i], pidx[i] + (dst - src) * weight[t])
                es2 = es - ev[i] + e2
                h = man2 + 2 * es2
                f = d + 1 + h
                if reflect and f <= bound:
                    j = mpattern[t]
                    r2 = _extra(pdb, offset[j], ridx[j] + (mirror[dst] - mirror[src]) * mweight[t])
                    rs2 = rs - rv[j] + r2
                    if rs2 > es2:
                        h = man2 + 2 * rs2
                        f = d + 1 + h
            if use_lc and (kind == 2 or f <= bound):
                if vertical:
                    la = _line_cost(board, n, src // n, True, piles)
                    lb = _line_cost(board, n, dst // n, True, piles)
                    lc2 = lc + la + lb - lc_row[src // n] - lc_row[dst // n]
                else:
                    la = _line_cost(board, n, src % n, False, piles)
                    lb = _line_cost(board, n, dst % n, False, piles)
                    lc2 = lc + la + lb - lc_col[src % n] - lc_col[dst % n]
                if man2 + lc2 > h:
                    h = man2 + lc2
                    f = d + 1 + h
            if f > bound:
                if f < next_bound:
                    next_bound = f
                board[src] = t
                board[dst] = 0
                continue
            # accept the child: remember what to restore, then commit
            s = d + 1
            sv_ham[s] = ham
            sv_man[s] = man
            ham = ham2
            man = man2
            if use_lc:
                sv_lc[s] = lc
                lc = lc2
                if vertical:
                    sv_l1[s] = lc_row[src // n]
                    sv_l2[s] = lc_row[dst // n]
                    lc_row[src // n] = la
                    lc_row[dst // n] = lb
                else:
                    sv_l1[s] = lc_col[src % n]
                    sv_l2[s] = lc_col[dst % n]
                    lc_col[src % n] = la
                    lc_col[dst % n] = lb
            if use_pdb:
                i = pattern[t]
                pidx[i] += (dst - src) * weight[t]
                sv_ev[s] = ev[i]
                sv_es[s] = es
                ev[i] = e2
                es = es2
                if reflect:  # an accepted child always had its reflected lookup done
                    j = mpattern[t]
                    ridx[j] += (mirror[dst] - mirror[src]) * mweight[t]
                    sv_rv[s] = rv[j]
                    sv_rs[s] = rs
                    rv[j] = r2
                    rs = rs2
            d = s
            path[d] = src
            nxt[d] = 0
            if h == 0:
                counters[0] = expanded
                counters[1] = generated
                counters[2] = d
                # put the board back as it was given
                while d > 0:
                    a = path[d]
                    c = path[d - 1]
                    board[a] = board[c]
                    board[c] = 0
                    d -= 1
                return FOUND
            expanded += 1
            if expanded > node_limit:
                counters[0] = expanded
                counters[1] = generated
                return LIMIT
        bound = next_bound


# --------------------------------------------------------------------------- the Python face
def run(board: Board, heuristic: Heuristic, algorithm: str, node_limit: int | None = None) -> SearchResult:
    """Run the kernel on ``board`` and turn its answer into a :class:`SearchResult`.

    Raises :class:`SearchLimitError` (naming the bound reached, a lower bound on the
    optimum) once more than ``node_limit`` nodes have been expanded.
    """
    began = time.perf_counter()
    if not board.is_solvable():
        return unsolvable_result(algorithm, heuristic.name)
    n = board.n
    tiles = np.array(board.tiles, dtype=np.int64)
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    counters = np.zeros(4, dtype=np.int64)
    limit = _NO_LIMIT if node_limit is None else int(node_limit)
    status = _search(tiles, n, heuristic.kind, limit, heuristic.pdb, heuristic.offset, heuristic.pattern,
                     heuristic.weight, heuristic.mirror_pattern, heuristic.mirror_weight, heuristic.mirror,
                     heuristic.reflect, path, counters)
    expanded, generated, length, bound = (int(x) for x in counters)
    if status == LIMIT:
        raise SearchLimitError(f"IDA* ({heuristic.name})", limit, expanded, bound)
    if status == TOO_DEEP:
        # only a board needing more than MAX_DEPTH moves gets here, long after any sane node limit
        raise SearchLimitError(f"IDA* ({heuristic.name}, depth cap {MAX_DEPTH})", limit, expanded, bound)
    boards = [board]
    tiles_now = list(board.tiles)
    for d in range(1, length + 1):
        blank, target = int(path[d - 1]), int(path[d])
        tiles_now[blank], tiles_now[target] = tiles_now[target], 0
        boards.append(Board(tuple(tiles_now), n))
    return SearchResult(tuple(boards), expanded, generated, time.perf_counter() - began, algorithm,
                        heuristic.name)


def idastar(board: Board, heuristic: str = "linear-conflict", node_limit: int | None = None) -> SearchResult:
    """IDA* with a heuristic named in :data:`KINDS`; optimal, deterministic, bounded by ``node_limit``."""
    return run(board, simple_heuristic(board.n, heuristic), "idastar", node_limit)
