"""Routes of the blank that IDA* never needs to follow, and the automaton that skips them.

IDA* searches a tree of routes, and many routes lead to the same board: six moves round a 2×2
block one way reach what six moves the other way reach, and longer routes round a 2×3 block
do the same. The search would explore the subtree below each copy. A route is **redundant** when
another route (its *witness*) has the same effect on every board, is no longer, comes first in
(length, direction) order, and stays within the cells the route itself visits, so that it is
legal wherever the route is. The first shortest route to any board in that order never holds a
redundant route, so skipping every move that completes one keeps an optimal solution within
each bound: IDA* stays optimal (Taylor & Korf, *Pruning duplicate nodes in depth-first search*,
1993). A move back, the shortest redundant route, is one of them.

:func:`find_redundant` lists the minimal redundant routes (none holds a shorter one) up to a
length, each with a witness, by walking every route that holds none on an unbounded grid.
Those up to :data:`MAX_LENGTH` moves ship in ``redundant_routes.txt`` (one ``route witness``
pair per line, ``-`` for the empty route), written by ``python -m solver.search.move_pruning
--write``; a test checks the file against the walk. :func:`automaton` turns them into the
table the kernels step through, one state per depth: ``table[state, direction]`` is the next
state, or -1 where the move completes a redundant route.

Directions are the blank's, in the kernels' order: up, down, left, right (``U D L R``).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections import deque
from pathlib import Path

import numpy as np

DIRECTIONS = "UDLR"
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
MAX_LENGTH = 12
"""The longest redundant routes shipped: 2,364 routes, an automaton of 10,371 states (83 KB as int16)."""
SHIPPED = Path(__file__).with_name("redundant_routes.txt")

Cell = tuple[int, int]
Effect = tuple[Cell, tuple[tuple[Cell, Cell], ...]]


def effect(route: str) -> tuple[Effect, frozenset[Cell]]:
    """What ``route`` does from the blank at (0, 0) on an unbounded grid: where the blank ends and
    which tile (named by its starting cell) sits on each cell it changed; and the cells it visits."""
    blank: Cell = (0, 0)
    tile_on: dict[Cell, Cell | None] = {}
    visited = {blank}
    for move in route:
        dr, dc = STEPS[DIRECTIONS.index(move)]
        nxt = (blank[0] + dr, blank[1] + dc)
        tile_on[blank] = tile_on.get(nxt, nxt)
        tile_on[nxt] = None
        blank = nxt
        visited.add(blank)
    moved = tuple(sorted((cell, tile) for cell, tile in tile_on.items() if tile is not None and tile != cell))
    return (blank, moved), frozenset(visited)


def route_order(route: str) -> tuple[int, list[int]]:
    """The key of the (length, direction) order in which a witness comes before its route."""
    return len(route), [DIRECTIONS.index(move) for move in route]


def find_redundant(max_length: int) -> list[tuple[str, str]]:
    """Every minimal redundant route of up to ``max_length`` moves with a witness, in (length, direction) order.

    Walks the routes holding no redundant route, shortest first and in direction order within a
    length, so that every possible witness of a route comes before it.
    """
    seen: dict[Effect, list[tuple[str, frozenset[Cell]]]] = {}
    empty_effect, empty_cells = effect("")
    seen[empty_effect] = [("", empty_cells)]
    redundant: dict[str, str] = {}
    layer = [""]
    for _ in range(max_length):
        following = []
        for prefix in layer:
            for move in DIRECTIONS:
                route = prefix + move
                if any(route[i:] in redundant for i in range(1, len(route))):
                    continue  # holds a shorter redundant route: skipped before it is reached
                done, cells = effect(route)
                witness = next((w for w, w_cells in seen.get(done, ()) if w_cells <= cells), None)
                if witness is not None:
                    redundant[route] = witness
                else:
                    seen.setdefault(done, []).append((route, cells))
                    following.append(route)
        layer = following
    return sorted(redundant.items(), key=lambda pair: route_order(pair[0]))


def format_routes(pairs: list[tuple[str, str]]) -> str:
    return "".join(f"{route} {witness or '-'}\n" for route, witness in pairs)


def read_routes(path: Path = SHIPPED) -> list[tuple[str, str]]:
    """The ``route witness`` pairs of a file written by :func:`format_routes`."""
    pairs = []
    for line in path.read_text().splitlines():
        route, witness = line.split()
        pairs.append((route, "" if witness == "-" else witness))
    return pairs


def automaton(routes: list[str]) -> np.ndarray:
    """The Aho-Corasick automaton over ``routes``: int32 ``[state, direction]``, the next state or -1
    where the move completes one of them. State 0 is the start (no move yet)."""
    goto: list[dict[int, int]] = [{}]
    ends = [False]
    for route in routes:
        state = 0
        for move in route:
            k = DIRECTIONS.index(move)
            if k not in goto[state]:
                goto.append({})
                ends.append(False)
                goto[state][k] = len(goto) - 1
            state = goto[state][k]
        ends[state] = True
    delta = np.zeros((len(goto), 4), dtype=np.int64)
    fail = [0] * len(goto)
    queue: deque[int] = deque()
    for k in range(4):
        if k in goto[0]:
            delta[0, k] = goto[0][k]
            queue.append(goto[0][k])
    while queue:  # breadth first, so a state's fallback is settled before it is used
        state = queue.popleft()
        ends[state] = ends[state] or ends[fail[state]]
        for k in range(4):
            if k in goto[state]:
                child = goto[state][k]
                fail[child] = int(delta[fail[state], k])
                delta[state, k] = child
                queue.append(child)
            else:
                delta[state, k] = delta[fail[state], k]
    table = np.where(np.array(ends)[delta], -1, delta)
    return np.ascontiguousarray(table, dtype=np.int32)


MOVE_BACK = ("UD", "DU", "LR", "RL")


@functools.cache
def pruning_table(redundant: bool = True) -> np.ndarray:
    """The kernels' automaton (int16, built once per process): over the shipped redundant routes, or
    with ``redundant=False`` over the moves back alone (the search before this module, for benchmarks)."""
    table = automaton([route for route, _ in read_routes()] if redundant else list(MOVE_BACK))
    if table.shape[0] > np.iinfo(np.int16).max:
        raise ValueError(f"an automaton of {table.shape[0]} states does not fit the kernels' int16 states")
    table = table.astype(np.int16)
    table.setflags(write=False)
    return table


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Write the shipped redundant routes (maintainers).")
    p.add_argument("--write", action="store_true", help=f"rewrite {SHIPPED.name}")
    p.add_argument("--max-length", type=int, default=MAX_LENGTH)
    args = p.parse_args(argv)
    pairs = find_redundant(args.max_length)
    text = format_routes(pairs)
    if args.write:
        partial = SHIPPED.with_suffix(".partial")
        partial.write_text(text)
        partial.replace(SHIPPED)
    print(f"{len(pairs)} redundant routes of up to {args.max_length} moves; automaton of "
          f"{automaton([r for r, _ in pairs]).shape[0]} states" + (f"; wrote {SHIPPED}" if args.write else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
