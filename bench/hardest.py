"""The hardest positions: the two 31-move 8-puzzles and the seventeen 80-move 15-puzzles.

    python bench/hardest.py [--shared ../shared] [--limit 5] [--astar]
"""

from __future__ import annotations

import sys

from benchlib import parser, read_lines, run, warm_up

from solver.solve import solve


def main() -> int:
    p = parser(__doc__)
    p.add_argument("--limit", type=int, default=None, help="only the first LIMIT positions")
    args = p.parse_args()
    instances = read_lines(args.shared / "bench" / "hardest.txt", args.limit)
    return run(instances, solve, args.astar, args.astar_node_limit, "hardest positions",
               warm_up({case.board.n for case in instances}), args.jobs)


if __name__ == "__main__":
    sys.exit(main())
