"""IDA*'s child order side by side: plain direction order, and the route remembered from the
previous iteration first (solver/search/kernel.py, _search), on the same instances in one run.

    python bench/route_first.py [--file korf100.txt] [--limit 20] [--rounds 3]

Both run the same heuristic (the four views) in the same native kernel, one thread; only the
order of the children differs, and with it where the last iteration finds its goal. Rounds are
interleaved (each round reverses the order of the one before) so that a change of load hits
both; each instance's time is the median of its rounds, in CPU seconds of the solving thread.
Every answer is checked against the file's optimum.
"""

from __future__ import annotations

import sys

from benchlib import side_by_side, side_by_side_instances

from solver.search.idastar import run
from solver.search.pdb.database import pdb_heuristic


def main() -> int:
    heuristic = pdb_heuristic(4)
    instances, rounds = side_by_side_instances(__doc__)
    return side_by_side(instances,
                        {"direction order": lambda board: run(board, heuristic, "pdb", threads=1, route_first=False),
                         "route first": lambda board: run(board, heuristic, "pdb", threads=1)},
                        rounds, "route first / direction order")


if __name__ == "__main__":
    sys.exit(main())
