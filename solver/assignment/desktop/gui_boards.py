"""The boards Shuffle makes: a random solvable board, or one a chosen number of moves from solved.

Free of Tk. ``random_board`` is uniform over the solvable boards. ``board_at_depth`` gives a
board whose *optimal* solution has exactly the chosen length: on 2×2 and 3×3 drawn uniformly
from the exact distance table; on larger boards taken from the optimal path of a random board
(every board on an optimal path, k moves before the goal, is exactly k moves from it), so
it needs a solve, which :mod:`solver.assignment.desktop.gui_solver` runs in the background.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from solver.board import Board
from solver.search.result import SearchResult

EXACT_MAX_N = 3
DEPTH_LIMITS = {2: 6, 3: 31, 4: 64}
"""The deepest optimal depth Shuffle offers per size: the 2×2 and 3×3 maxima, and on 4×4 about as
deep as random boards reach (the 80-move ones can be typed in)."""


def random_board(n: int, rng: random.Random) -> Board:
    """A uniformly random solvable board other than the goal.

    >>> board = random_board(4, random.Random(5))
    >>> board.is_solvable(), board.is_goal()
    (True, False)
    """
    while True:
        tiles = list(range(n * n))
        rng.shuffle(tiles)
        board = Board(tuple(tiles), n)
        if not board.is_solvable():  # swapping two tiles (not the blank) flips solvability, one to one
            first, second = [i for i, t in enumerate(tiles) if t][:2]
            tiles[first], tiles[second] = tiles[second], tiles[first]
            board = Board(tuple(tiles), n)
        if not board.is_goal():
            return board


def depth_limit(n: int) -> int | None:
    """The deepest optimal depth Shuffle can make on an N×N board; None when it cannot choose one."""
    return DEPTH_LIMITS.get(n)


def exact_board_at_depth(n: int, depth: int, rng: random.Random) -> Board:
    """A uniformly random 2×2 or 3×3 board whose optimal solution has ``depth`` moves.

    >>> from solver.search.exact import distance
    >>> distance(exact_board_at_depth(3, 31, random.Random(1)))
    31
    """
    from solver.assignment.experiment import unrank
    from solver.search.exact import UNREACHABLE, exact_table

    table = exact_table(n)
    ranks = [rank for rank, code in enumerate(table) if code != UNREACHABLE and code & 31 == depth]
    if not ranks:
        raise ValueError(f"no {n}x{n} board is {depth} moves from solved")
    return Board(unrank(rng.choice(ranks), n * n), n)


def board_at_depth(n: int, depth: int, rng: random.Random,
                   solve: Callable[[Board], SearchResult | None]) -> Board | None:
    """A board whose optimal solution has exactly ``depth`` moves; ``None`` when ``solve`` gives
    ``None`` (the search was cancelled). ``solve`` is used on boards larger than 3×3 only."""
    limit = depth_limit(n)
    if limit is None or not 1 <= depth <= limit:
        raise ValueError(f"a {n}x{n} board can be shuffled to an optimal depth of 1 to {limit}, not {depth}"
                         if limit else f"a {n}x{n} board can be shuffled only to a random board")
    if n <= EXACT_MAX_N:
        return exact_board_at_depth(n, depth, rng)
    while True:
        result = solve(random_board(n, rng))
        if result is None or result.path is None:
            return None
        if result.moves >= depth:
            return result.path[result.moves - depth]
