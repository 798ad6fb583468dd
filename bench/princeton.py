"""Every Princeton puzzle file (2×2 to 10×10): the optimal count is in the name (see SOURCE.md).

    python bench/princeton.py [--shared ../shared] [--astar]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from benchlib import Instance, parser, run, warm_up

from solver.formats import parse_puzzle
from solver.solve import solve

HARD = {"puzzle4x4-hard1.txt": 38, "puzzle4x4-hard2.txt": 47}
"""The two files whose counts come from the Princeton checklist, not the name."""


def expected(name: str) -> int | None:
    if "unsolvable" in name:
        return None
    if name in HARD:
        return HARD[name]
    match = re.search(r"(\d+)\.txt$", name)
    if match is None:
        raise ValueError(f"{name}: no move count in the file name")
    return int(match.group(1))


def load(folder: Path) -> list[Instance]:
    return [Instance(path.name, parse_puzzle(path.read_bytes(), str(path)), expected(path.name))
            for path in sorted(folder.glob("puzzle*.txt"))]


def main() -> int:
    args = parser(__doc__).parse_args()
    instances = load(args.shared / "external-data" / "princeton")
    return run(instances, solve, args.astar, args.astar_node_limit, "Princeton files",
               warm_up({case.board.n for case in instances if case.board.n <= 5}), args.jobs)


if __name__ == "__main__":
    sys.exit(main())
