"""10,000 random 3×3 boards (both parity classes) solved in one process with the exact table.

    python bench/random3x3.py [--count 10000] [--seed 1] [--astar]

Correctness is checked against an independent IDA* (linear conflict) on the first
``--check`` boards; the timing covers only the table solves.
"""

from __future__ import annotations

import random
import sys
import time

from benchlib import Instance, parser, peak_mb

from solver.board import Board
from solver.search.astar import astar
from solver.solve import solve


def main() -> int:
    p = parser(__doc__)
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", type=int, default=200, help="boards cross-checked with IDA*/linear conflict")
    p.add_argument("--verbose", action="store_true", help="one line per board")
    args = p.parse_args()
    rng = random.Random(args.seed)
    boards = []
    for _ in range(args.count):
        tiles = list(range(9))
        rng.shuffle(tiles)
        boards.append(Board.from_tiles(tiles))
    began, cpu = time.perf_counter(), time.process_time()
    results = [solve(board) for board in boards]
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    if args.verbose:
        for i, result in enumerate(results):
            print(f"random-{i:<6} len {result.moves:>3} nodes {result.expanded:>4} {result.seconds:.6f} s")
    solvable = [r for r in results if r.path is not None]
    print(f"{args.count:,} random 3x3 boards: {len(solvable):,} solvable, mean length "
          f"{sum(r.moves for r in solvable) / max(len(solvable), 1):.2f}, {wall:.3f} s wall ({cpu:.3f} s CPU) in one "
          f"process, including the table load; {sum(r.expanded for r in results):,} table lookups")
    wrong = 0
    from solver.search.idastar import idastar

    for board, result in list(zip(boards, results))[:args.check]:
        wrong += idastar(board).moves != result.moves
    print(f"cross-check with IDA*/linear conflict on {min(args.check, len(boards))} boards: {wrong} differ")
    if args.astar:
        sample = [Instance(f"random-{i}", b, r.moves) for i, (b, r) in enumerate(zip(boards, results))][:500]
        began = time.perf_counter()
        for case in sample:
            astar(case.board, "manhattan")
        a_wall = time.perf_counter() - began
        ours = sum(r.seconds for r in results[:len(sample)])
        print(f"A*/Manhattan on the first {len(sample)}: {a_wall:.3f} s vs table {ours:.3f} s "
              f"(ratio {a_wall / max(ours, 1e-9):.0f}x)")
    print(f"peak memory (max RSS of this process): {peak_mb():.0f} MB")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
