"""IDA*'s ways of searching fewer nodes, each side by side with the search without it, on the
same instances in one run:

    python bench/idastar_options.py [--option route|pruning|both|dual] [--file korf100.txt] [--limit 20] [--rounds 3]

- ``route``: children in plain direction order, against the route remembered from the previous
  iteration tried first (solver/search/kernel.py, _search);
- ``pruning``: skipping only the move back, against skipping every redundant route
  (solver/search/move_pruning.py);
- ``both``: neither of those two, against both;
- ``dual``: the board searched as it is, against the cheaper of it and its dual board for a board
  with the blank in a corner (solver/search/dual.py).

Both sides run the same heuristic (the solver's) in the same native kernel, one thread, and the
other options on. Rounds are interleaved (each round reverses the order of the one before) so that
a change of load hits both; each instance's time is the median of its rounds, in CPU seconds of
the solving thread. Every answer is checked against the file's optimum.
"""

from __future__ import annotations

import sys

from benchlib import side_by_side, side_by_side_instances

from solver.search.idastar import run
from solver.search.pdb.database import pdb_heuristic

OFF = {"both": {"route_first": False, "pruned": False}, "route": {"route_first": False}, "pruning": {"pruned": False},
       "dual": {"dual": False}}


def main() -> int:
    heuristic = pdb_heuristic(4)
    instances, args = side_by_side_instances(__doc__, {"option": list(OFF)})
    off = OFF[args.option]
    return side_by_side(instances,
                        {f"without {args.option}": lambda board: run(board, heuristic, "pdb", threads=1, **off),
                         f"with {args.option}": lambda board: run(board, heuristic, "pdb", threads=1)},
                        args.rounds, f"with {args.option} / without")


if __name__ == "__main__":
    sys.exit(main())
