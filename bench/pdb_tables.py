"""The 4×4 tables side by side: the 7-7-1 partition (the top seven tiles, the bottom seven, tile 8
alone; 38 MB) and the 8-7 that replaced it (the top two rows, the bottom seven; 149 MB), on the same
instances in one run.

    python bench/pdb_tables.py [--file hardest.txt] [--limit 20] [--rounds 3]

Both read the bottom seven's table, the 7-7-1 through its four views and the 8-7 through its two
(solver/search/pdb/views.py), in the same native kernel, one thread. The top seven's table is not
shipped any more: the first run builds it (about 30 s) into the table cache. Rounds are interleaved
(each round reverses the order of the one before) so that a change of load hits both; each
instance's time is the median of its rounds, in CPU seconds of the solving thread. Every answer is
checked against the file's optimum.
"""

from __future__ import annotations

import sys

from benchlib import heuristic_7_7_1, side_by_side, side_by_side_instances

from solver.search.idastar import run
from solver.search.pdb.database import pdb_heuristic


def main() -> int:
    instances, args = side_by_side_instances(__doc__)
    before, now = heuristic_7_7_1(), pdb_heuristic(4)
    return side_by_side(instances, {"7-7-1": lambda board: run(board, before, "pdb", threads=1),
                                    "8-7": lambda board: run(board, now, "pdb", threads=1)},
                        args.rounds, "8-7 / 7-7-1")


if __name__ == "__main__":
    sys.exit(main())
