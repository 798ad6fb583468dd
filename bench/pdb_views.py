"""The 7-7-1 heuristic's views side by side: the plain and reflected lookups alone, and with the
flipped ones (solver/search/pdb/views.py), on the same instances in one run.

    python bench/pdb_views.py [--file korf100.txt] [--limit 20] [--rounds 3]

The 7-7-1 is the 4×4 partition before the 8-7 (bench/pdb_tables.py), which has no flipped views:
they would read what its plain ones read. Both sides read the same two tables with the same
native kernel; the flipped views add two lookups per child and take fewer nodes. Rounds are
interleaved (each round reverses the order of the one before) so that a change of load hits both;
each instance's time is the median of its rounds, in CPU seconds of the solving thread. Every
answer is checked against the file's optimum.
"""

from __future__ import annotations

import sys

from benchlib import heuristic_7_7_1, side_by_side, side_by_side_instances

from solver.search.idastar import run


def main() -> int:
    two, four = heuristic_7_7_1(flipped=False), heuristic_7_7_1()
    instances, args = side_by_side_instances(__doc__)
    return side_by_side(instances, {"plain+reflected": lambda board: run(board, two, "pdb", threads=1),
                                    "all four views": lambda board: run(board, four, "pdb", threads=1)},
                        args.rounds, "all four views / plain+reflected")


if __name__ == "__main__":
    sys.exit(main())
