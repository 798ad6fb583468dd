"""The IDA* kernel: one compiled search for every heuristic, from Hamming to additive pattern databases.

The search runs in a numba-compiled kernel over a flat array of tiles, with an explicit
stack instead of recursion. Every heuristic is maintained incrementally as tiles move:
Hamming and Manhattan by the moved tile's change, linear conflict by recomputing the two
rows or columns the move touches, and pattern databases by updating the moved tile's
pattern index in each set (each set reads the board through its own symmetry, see
:mod:`solver.search.pdb.views`: a multiply-add for a sparse table, a rank of seven cells for a
dense one) and reading one entry. There is no slow Python
copy of this search: ``idastar(board, "manhattan")`` and the pattern-database solver are the
same code with a different ``kind``. The kernel releases the GIL, so :mod:`solver.search.parallel`
can share one search's large iterations among threads.

Importing this module imports numpy and numba (about 0.3 s) and, on the very first run on a
machine, compiles the kernel (a few seconds; then cached by numba on disk). Solving a 3×3
board never comes here (see :mod:`solver.search.exact`), nor, where a C compiler exists, a 4×4
board with the pattern databases: :mod:`solver.search.native` runs this same search (node for
node) in C. This kernel stays the reference and the fallback for it.

Determinism: children are tried in UP, DOWN, LEFT, RIGHT order (the blank's direction; on the
route remembered from the previous iteration, its step first), a move completing a redundant
route (:mod:`solver.search.move_pruning`; the move back is one) is skipped, and the first path
found within the final bound is returned, so the same board always gives the same path.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.search.heuristic import MAX_PATTERN
from solver.search.linear_conflict import line_cost
from solver.search.pdb.index import _extra, _rank, dense_extra
from solver.search.status import FOUND, FULL, LIMIT, NOT_FOUND, TOO_DEEP


# --------------------------------------------------------------------------- the kernel
@njit(cache=True, nogil=True)
def _route_dir(pv, cell, d, nbr):
    """The direction from ``cell`` (the route's at depth ``d``) to the remembered route's next cell, or -1."""
    if pv[0] <= d + 1:
        return -1
    for k in range(4):
        if nbr[cell * 4 + k] == pv[2 + d]:
            return k
    return -1


@njit(cache=True, nogil=True)
def _route_step(pv, path, d, nbr):
    """:func:`_route_dir` at depth ``d`` if ``path[0..d]`` starts the remembered route, else -1."""
    if pv[0] <= d + 1:
        return -1
    for j in range(d + 1):
        if pv[1 + j] != path[j]:
            return -1
    return _route_dir(pv, path[d], d, nbr)


@njit(cache=True, nogil=True)
def _search(board, n, kind, node_limit, pdb, offset, sets, slot, weight, cells, dense, members, path, counters,
            d0, bound_in, single, collect_depth, entries, entry_counts, pv, best, prune):
    """IDA* from ``board`` (modified during the search, restored at the end).

    Returns FOUND, LIMIT, TOO_DEEP, or (with ``single``) NOT_FOUND, or (collecting) FULL.
    ``path[0..L]`` receives the blank's cell at each depth; ``counters`` receives expanded,
    generated, the solution length, the last bound (after NOT_FOUND: the next one) and the
    number of entries collected. A child is first judged on Manhattan alone, then on each set
    of pattern databases in turn, and dropped as soon as one proves it too far: most pruned
    children cost one table lookup or none.

    The same loop serves the threaded split (:mod:`solver.search.parallel`):

    - ``d0 > 0`` starts below the root: ``path[0..d0]`` is a route from ``board`` (the root)
      whose end node was already counted, and the search covers that node's subtree only;
    - ``single`` runs one iteration, with bound ``bound_in`` (or the root's h if negative);
    - ``collect_depth > 0`` runs one iteration that stops at that depth: each node accepted
      there (or any goal above it, after which the pass ends) is written to ``entries`` (its
      route) and ``entry_counts`` (expanded and generated so far, its depth, whether a goal),
      in the order a plain depth-first search would meet them.

    A move completing a redundant route is skipped (the move back is one): ``prune`` is the
    automaton of :mod:`solver.search.move_pruning`, stepped once per depth.

    Children are tried in direction order (up, down, left, right), except on the route remembered
    from the previous iteration, whose next step goes first: ``pv`` holds that route's length in
    cells (0: none; -1: no route, and none kept) and then its cells. Each iteration writes to
    ``best`` the lowest h it accepted (-1 if none), at the deepest node on a tie (the first met on
    a tie of both), that node's depth and its route from the root; running every iteration
    (not ``single``), the kernel copies it into ``pv`` for the next. The split runs each part
    with the same ``pv`` and keeps the best of the parts' ``best``, so the order, and with it the
    path and the counts, is the sequential search's. That order is what the last iteration
    gains by: it ends at the first goal, and the lowest h met in the iteration before is likely
    on the way to one (a quarter fewer nodes on Korf's 100).
    """
    nn = n * n
    # walk down the given route; the heuristic state below is computed where it ends
    for i in range(1, d0 + 1):
        board[path[i - 1]] = board[path[i]]
        board[path[i]] = 0
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
            lc_row[line] = line_cost(board, n, line, True, piles)
            lc_col[line] = line_cost(board, n, line, False, piles)
            lc += lc_row[line] + lc_col[line]
    nslots = offset.shape[0]
    pidx = np.zeros(nslots, dtype=np.int64)
    ev = np.zeros(nslots, dtype=np.int64)
    es = np.zeros(max(sets, 1), dtype=np.int64)
    tmp_e = np.zeros(max(sets, 1), dtype=np.int64)
    tmp_s = np.zeros(max(sets, 1), dtype=np.int64)
    tmp_i = np.zeros(max(sets, 1), dtype=np.int64)
    # how a tile's cell moves in each slot's frame when the blank moves in direction k (the tile
    # slides the other way: +n, -n, +1, -1 in the plain frame; a symmetry permutes those)
    cstep = np.zeros(max(nslots, 1) * 4, dtype=np.int64)
    for sl in range(nslots):
        q = sl * nn
        cstep[sl * 4] = cells[q + n] - cells[q + 0]
        cstep[sl * 4 + 1] = cells[q + 0] - cells[q + n]
        cstep[sl * 4 + 2] = cells[q + 1] - cells[q + 0]
        cstep[sl * 4 + 3] = cells[q + 0] - cells[q + 1]
    best_s = 0
    if use_pdb:
        for st in range(sets):
            for p in range(nn):
                t = board[p]
                if t != 0:
                    pidx[slot[st * nn + t]] += weight[st * nn + t] * cells[slot[st * nn + t] * nn + p]
        for st in range(sets):
            for t in range(1, nn):
                sl = slot[st * nn + t]
                if dense[sl] > 0 and weight[st * nn + t] == 1:
                    pidx[sl] = _rank(where, cells, sl * nn, members, sl * MAX_PATTERN, dense[sl], nn)
        for sl in range(nslots):
            if dense[sl] > 0:
                ev[sl] = dense_extra(pdb, offset[sl], pidx[sl], dense[sl])
            else:
                ev[sl] = _extra(pdb, offset[sl], pidx[sl])
        for st in range(sets):
            for t in range(1, nn):
                if weight[st * nn + t] == 1:  # count each slot once: by its first tile
                    es[st] += ev[slot[st * nn + t]]
            if es[st] > best_s:
                best_s = es[st]

    # per-depth saved state, restored when the search backs out of a move
    nxt = np.zeros(depth_cap + 1, dtype=np.int64)
    pv_dir = np.full(depth_cap + 1, -1, dtype=np.int64)  # the remembered route's next direction, or -1
    state = np.zeros(depth_cap + 1, dtype=np.int64)  # the pruning automaton's, after the route to each depth
    for i in range(1, d0 + 1):
        step = path[i] - path[i - 1]
        k = 0 if step == -n else (1 if step == n else (2 if step == -1 else 3))
        state[i] = max(prune[state[i - 1], k], 0)  # never below 0: this search accepted the route
    track = pv[0] >= 0
    sv_ham = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_man = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_lc = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_l1 = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_l2 = np.zeros(depth_cap + 1, dtype=np.int64)
    sv_ev = np.zeros((depth_cap + 1) * max(sets, 1), dtype=np.int64)
    sv_ix = np.zeros((depth_cap + 1) * max(sets, 1), dtype=np.int64)
    sv_es = np.zeros((depth_cap + 1) * max(sets, 1), dtype=np.int64)

    h0 = ham
    if kind == 1:
        h0 = man
    elif kind == 2:
        h0 = man + lc
    elif use_pdb:
        h0 = man + 2 * best_s
        if kind == 4 and man + lc > h0:
            h0 = man + lc
    expanded = 0
    generated = 0
    collected = 0
    bound = h0 if bound_in < 0 else bound_in
    path[d0] = blank
    status = NOT_FOUND
    counters[4] = 0
    d = d0
    while True:
        counters[3] = bound
        if h0 == 0:
            counters[2] = d0
            status = FOUND
            break
        if bound > depth_cap:
            status = TOO_DEEP
            break
        next_bound = 1 << 40
        d = d0
        nxt[d0] = 0
        pv_dir[d0] = _route_step(pv, path, d0, nbr) if track else -1
        best[0] = -1
        best[1] = 0
        if d0 == 0:
            expanded += 1
            if expanded > node_limit:
                status = LIMIT
                break
        while True:
            b = path[d]
            i = nxt[d]
            if i == 4:
                if d == d0:
                    break
                # back out of the move that led here: the tile returns from path[d-1] to b
                src = b
                dst = path[d - 1]
                t = board[dst]
                board[src] = t
                board[dst] = 0
                where[t] = src
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
                    for st in range(sets):
                        sl = slot[st * nn + t]
                        pidx[sl] = sv_ix[d * sets + st]
                        ev[sl] = sv_ev[d * sets + st]
                        es[st] = sv_es[d * sets + st]
                d -= 1
                continue
            nxt[d] = i + 1
            p = pv_dir[d]
            k = i if p < 0 else (p if i == 0 else (i - 1 if i - 1 < p else i))
            nb = nbr[b * 4 + k]
            if nb < 0:
                continue
            next_state = prune[state[d], k]
            if next_state < 0:
                continue
            generated += 1
            # the tile on nb slides into the blank's cell b; tentatively, until the child is accepted
            t = board[nb]
            src = nb
            dst = b
            board[dst] = t
            board[src] = 0
            where[t] = dst
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
            lc2 = lc
            la = 0
            lb = 0
            if use_pdb and f <= bound:
                top = 0
                for st in range(sets):
                    q = st * nn + t
                    sl = slot[q]
                    if dense[sl] > 0:
                        index = _rank(where, cells, sl * nn, members, sl * MAX_PATTERN, dense[sl], nn)
                        e2 = dense_extra(pdb, offset[sl], index, dense[sl])
                    else:
                        index = pidx[sl] + cstep[sl * 4 + k] * weight[q]
                        e2 = _extra(pdb, offset[sl], index)
                    tmp_i[st] = index
                    tmp_e[st] = e2
                    tmp_s[st] = es[st] - ev[sl] + e2
                    if tmp_s[st] > top:
                        top = tmp_s[st]
                        h = man2 + 2 * top
                        f = d + 1 + h
                        if f > bound:
                            break
            if use_lc and (kind == 2 or f <= bound):
                if vertical:
                    la = line_cost(board, n, src // n, True, piles)
                    lb = line_cost(board, n, dst // n, True, piles)
                    lc2 = lc + la + lb - lc_row[src // n] - lc_row[dst // n]
                else:
                    la = line_cost(board, n, src % n, False, piles)
                    lb = line_cost(board, n, dst % n, False, piles)
                    lc2 = lc + la + lb - lc_col[src % n] - lc_col[dst % n]
                if man2 + lc2 > h:
                    h = man2 + lc2
                    f = d + 1 + h
            if f > bound:
                if f < next_bound:
                    next_bound = f
                board[src] = t
                board[dst] = 0
                where[t] = src
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
            if use_pdb:  # an accepted child had every set looked up
                for st in range(sets):
                    sl = slot[st * nn + t]
                    sv_ix[s * sets + st] = pidx[sl]
                    pidx[sl] = tmp_i[st]
                    sv_ev[s * sets + st] = ev[sl]
                    sv_es[s * sets + st] = es[st]
                    ev[sl] = tmp_e[st]
                    es[st] = tmp_s[st]
            d = s
            path[d] = src
            nxt[d] = 0
            state[d] = next_state
            pv_dir[d] = _route_dir(pv, src, d, nbr) if pv_dir[d - 1] == k else -1
            if track:
                if best[0] < 0 or h < best[0] or (h == best[0] and d > best[1]):
                    best[0] = h
                    best[1] = d
                    best[2:d + 3] = path[:d + 1]
            if collect_depth > 0 and (h == 0 or d == collect_depth):
                if h != 0:
                    expanded += 1
                for i in range(d + 1):
                    entries[collected, i] = path[i]
                entry_counts[collected, 0] = expanded
                entry_counts[collected, 1] = generated
                entry_counts[collected, 2] = d
                entry_counts[collected, 3] = 1 if h == 0 else 0
                collected += 1
                counters[4] = collected
                if h == 0:  # a goal above the split depth: nothing after it in this order matters
                    counters[3] = next_bound
                    break
                if collected == entries.shape[0]:
                    status = FULL
                    break
                nxt[d] = 4  # the subtree is searched later, by a worker
                continue
            if h == 0:
                counters[2] = d
                status = FOUND
                break
            expanded += 1
            if expanded > node_limit:
                status = LIMIT
                break
        if status != NOT_FOUND or single or collect_depth > 0:
            if status == NOT_FOUND:
                counters[3] = next_bound
            break
        bound = next_bound
        if track:
            pv[0] = 0 if best[0] < 0 else best[1] + 1
            pv[1:pv[0] + 1] = best[2:pv[0] + 2]
    counters[0] = expanded
    counters[1] = generated
    # put the board back as it was given
    while d > 0:
        a = path[d]
        c = path[d - 1]
        board[a] = board[c]
        board[c] = 0
        d -= 1
    return status
