"""The Princeton API on large boards: every Board method is O(N²), with no table that grows as N⁴.

Prints, for each size, the seconds and peak traced memory of each API method, beside the
baseline: the per-size Manhattan table the API built before (``table[tile][pos]``, N⁴ entries,
58 s and 2 GB at 127×127), measured where it fits (N <= 40) and estimated from N⁴ above.
Then checks the target: at 127×127 every method takes well under a second (exit 1 if not).

    python bench/board_api.py [--sizes 3,10,40,127]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from solver.board import Board  # noqa: E402
from solver.tiles import SMALL_N, manhattan_direct  # noqa: E402

TARGET_SECONDS = 1.0
BASELINE_MAX_N = 40


def measure(call: Callable[[], object]) -> tuple[float, int]:
    """Seconds of one call (untraced), and its peak traced memory in bytes (a second, traced call)."""
    began = time.perf_counter()
    call()
    seconds = time.perf_counter() - began
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        call()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return seconds, peak


def baseline_manhattan(board: Board) -> int:
    """The API's Manhattan distance before: build the size's N⁴ table, then one lookup per tile."""
    n = board.n
    table = [tuple(0 for _ in range(n * n))]
    for tile in range(1, n * n):
        goal_row, goal_col = divmod(tile - 1, n)
        table.append(tuple(abs(p // n - goal_row) + abs(p % n - goal_col) for p in range(n * n)))
    return sum(table[t][i] for i, t in enumerate(board.tiles))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="3,10,40,127", help="comma-separated board sizes N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    methods: dict[str, Callable[[Board], object]] = {
        "manhattan": Board.manhattan, "hamming": Board.hamming, "is_goal": Board.is_goal,
        "neighbors": Board.neighbors, "twin": Board.twin, "dimension": Board.dimension,
        "is_solvable": Board.is_solvable, "str": str,
    }
    print(f"{'N':>4} {'method':<12} {'seconds':>9} {'peak KiB':>10}   baseline (old manhattan: N^4 table)")
    worst_at_127 = 0.0
    for n in sizes:
        tiles = list(range(n * n))
        random.Random(args.seed).shuffle(tiles)
        board = Board(tuple(tiles), n)
        for name, method in methods.items():
            seconds, peak = measure(lambda method=method, board=board: method(board))
            note = ""
            if name == "manhattan":
                if n <= BASELINE_MAX_N:
                    old_seconds, old_peak = measure(lambda board=board: baseline_manhattan(board))
                    assert baseline_manhattan(board) == board.manhattan()
                    ratio = old_seconds / max(seconds, 1e-9)
                    note = f"{old_seconds:9.4f} s {old_peak / 1024:10,.0f} KiB  ({ratio:,.0f}x)"
                else:
                    scale = (n / BASELINE_MAX_N) ** 4
                    note = f"not run: ~{scale:,.0f}x the {BASELINE_MAX_N}x{BASELINE_MAX_N} figures (N^4 entries)"
            print(f"{n:>4} {name:<12} {seconds:9.4f} {peak / 1024:10,.0f}   {note}")
            if n == 127:
                worst_at_127 = max(worst_at_127, seconds)
    # Why sizes up to SMALL_N keep a small lookup table: the searches call manhattan() once per
    # generated board, and the table halves that call at 3x3 (the direct formula is what larger sizes use).
    print(f"\nmanhattan() per call, table (N <= {SMALL_N}) against the direct formula, 20,000 random boards:")
    for n in range(2, SMALL_N + 1):
        rng = random.Random(n)
        boards = [Board(tuple(rng.sample(range(n * n), n * n)), n) for _ in range(20_000)]
        began = time.perf_counter()
        for board in boards:
            board.manhattan()
        table = time.perf_counter() - began
        began = time.perf_counter()
        for board in boards:
            manhattan_direct(board.tiles, n)
        direct = time.perf_counter() - began
        print(f"{n:>4} table {table / len(boards) * 1e6:6.2f} us   direct {direct / len(boards) * 1e6:6.2f} us   "
              f"({direct / table:.2f}x)")
    # What the small tables buy the searches (A* h2 on 3x3 boards, CPU seconds), with and without them.
    import solver.board as board_module
    from solver.search.astar import astar

    rng = random.Random(args.seed)
    boards = []
    while len(boards) < 20:
        board = Board(tuple(rng.sample(range(9), 9)), 3)
        if board.is_solvable():
            boards.append(board)
    cpu = {}
    for label, small in (("tables", SMALL_N), ("no tables", 1)):
        board_module.SMALL_N = small  # successors() and manhattan() read it on every call
        began = time.process_time()
        expanded = sum(astar(board, "manhattan").expanded for board in boards)
        cpu[label] = time.process_time() - began
    board_module.SMALL_N = SMALL_N
    print(f"\nA* h2 on 20 random 3x3 boards ({expanded:,} expansions): tables {cpu['tables']:.2f} s CPU, "
          f"no tables {cpu['no tables']:.2f} s CPU ({cpu['no tables'] / cpu['tables']:.2f}x)")
    if 127 in sizes:
        ok = worst_at_127 < TARGET_SECONDS
        verdict = "met" if ok else "MISSED"
        print(f"\n127x127: slowest method {worst_at_127:.4f} s (target < {TARGET_SECONDS} s): {verdict}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
