"""The 4×4 heuristic's views side by side: the plain and reflected lookups alone, and with the
flipped ones (solver/search/pdb/views.py), on the same instances in one run.

    python bench/pdb_views.py [--file korf100.txt] [--limit 20] [--rounds 3]

Both read the same two tables with the same native kernel; the flipped views add two lookups
per child and take fewer nodes. Rounds are interleaved (each round reverses the order of the one
before) so that a change of load hits both; each instance's time is the median of its rounds, in
CPU seconds of the solving thread. Every answer is checked against the file's optimum.
"""

from __future__ import annotations

import sys

from benchlib import side_by_side, side_by_side_instances

from solver.search.idastar import run
from solver.search.pdb.database import pdb_heuristic


def main() -> int:
    two, four = pdb_heuristic(4, flipped=False), pdb_heuristic(4)
    instances, args = side_by_side_instances(__doc__)
    return side_by_side(instances, {"plain+reflected": lambda board: run(board, two, "pdb", threads=1),
                                    "all four views": lambda board: run(board, four, "pdb", threads=1)},
                        args.rounds, "all four views / plain+reflected")


if __name__ == "__main__":
    sys.exit(main())
