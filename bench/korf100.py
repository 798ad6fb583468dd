"""Korf's 100 random 15-puzzle instances, solved optimally with the 4×4 pattern databases.

    python bench/korf100.py [--shared ../shared] [--limit 10] [--astar]
"""

from __future__ import annotations

import sys

from benchlib import parser, read_lines, run, warm_up

from solver.solve import solve


def main() -> int:
    p = parser(__doc__)
    p.add_argument("--limit", type=int, default=None, help="only the first LIMIT instances")
    args = p.parse_args()
    instances = read_lines(args.shared / "bench" / "korf100.txt", args.limit)
    return run(instances, solve, args.astar, args.astar_node_limit, "Korf's 100", warm_up([4]), args.jobs)


if __name__ == "__main__":
    sys.exit(main())
