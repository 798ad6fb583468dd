"""Choose the 4×4 pattern-database partition by measurement: nodes and seconds on Korf's instances.

    python bench/pdb_partitions.py [--limit 30] [--shared ../shared]

Each candidate's tables are built (and cached) on first use, like the solver's own. A
configuration is one or more partitions; the heuristic is Manhattan plus the max over
their sums and their reflections. The solver uses the one in ``solver.search.pdb.layout.PARTITIONS``.
"""

from __future__ import annotations

import sys
import time

from benchlib import BEFORE_8_7, parser, peak_mb, read_lines

from solver.search.idastar import run
from solver.search.pdb.database import concatenate_tables, heuristic_from_tables, load_tables

CANDIDATES = {
    # halves of the top three rows + the bottom row (Korf & Felner's 6-6-3, mirrored to our goal)
    "A": ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12), (13, 14, 15)),
    # top-left 2x3 block, an L round the right and bottom, and the bottom-left corner
    "B": ((1, 2, 3, 5, 6, 7), (4, 8, 11, 12, 14, 15), (9, 10, 13)),
    # the 3 tiles in the top-left corner, the right half, and the bottom-left block
    "C": ((1, 2, 5), (3, 4, 7, 8, 11, 12), (6, 9, 10, 13, 14, 15)),
    # the left column with the top-left block, the right half, and the bottom middle
    "E": ((1, 2, 5, 6, 9, 13), (3, 4, 7, 8, 11, 12), (10, 14, 15)),
    # the top-left triangle, a band along the right, and the bottom-left triangle
    "H": ((1, 2, 3, 5, 6, 9), (4, 7, 8, 11, 12, 15), (10, 13, 14)),
    # 7-7-1: the top seven tiles, the bottom seven, tile 8 alone (dense 7-tile tables, 19 MB each)
    "S": BEFORE_8_7,
    # 7-6-2: the top seven, the bottom six but 12, and the right column's 8 and 12
    "T": ((1, 2, 3, 4, 5, 6, 7), (9, 10, 11, 13, 14, 15), (8, 12)),
    # 8-7: the top two rows and the bottom seven (the top eight's quad table, 130 MB, ships with the package)
    "U": ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15)),
}
CONFIGS = [("A",), ("B",), ("C",), ("E",), ("H",), ("A", "B"), ("A", "C"), ("B", "E"), ("B", "H"), ("A", "B", "E"),
           ("A", "B", "H"), ("S",), ("T",), ("S", "A"), ("S", "A", "B"), ("U",)]


def main() -> int:
    p = parser(__doc__)
    p.add_argument("--limit", type=int, default=30, help="first LIMIT Korf instances (default 30)")
    p.add_argument("--no-reflect", action="store_true", help="also show each single partition without reflection")
    args = p.parse_args()
    instances = read_lines(args.shared / "bench" / "korf100.txt", args.limit)
    tables = {}
    for name, partition in CANDIDATES.items():
        began = time.perf_counter()
        for info in load_tables(4, [tiles for tiles in partition if tiles not in tables]):
            tables[info.tiles] = info.table
        print(f"partition {name} {partition}: tables ready in {time.perf_counter() - began:.1f} s")
    configs = [(c, True) for c in CONFIGS]
    if args.no_reflect:
        configs += [((name,), False) for name in CANDIDATES]
    print(f"\n{'config':<22} {'nodes':>14} {'seconds':>9} {'cpu s':>8}  (first {len(instances)} Korf instances)")
    for names, reflect in configs:
        chosen = [CANDIDATES[n] for n in names]
        flat, starts = concatenate_tables({tiles: tables[tiles] for p in chosen for tiles in p})
        heuristic = heuristic_from_tables(4, chosen, flat, starts, reflect=reflect)
        run(instances[0].board, heuristic, "pdb")  # compile / warm the caches
        nodes, wall, cpu = 0, time.perf_counter(), time.process_time()
        for case in instances:
            result = run(case.board, heuristic, "pdb")
            assert result.moves == case.optimal, (case.name, result.moves, case.optimal)
            nodes += result.expanded
        label = "+".join(names) + (" +reflected" if reflect else "")
        print(f"{label:<22} {nodes:>14,} {time.perf_counter() - wall:>9.2f} {time.process_time() - cpu:>8.2f}",
              flush=True)
    print(f"peak memory: {peak_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
