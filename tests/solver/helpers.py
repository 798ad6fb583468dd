"""Helpers the solver tests share: random boards, a path check, and a sample of Korf's instances."""

from __future__ import annotations

import itertools
import random

from solver.board import Board

KORF_SAMPLE = [
    "41 5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3",
    "45 1 3 5 6 0 13 14 9 11 4 8 12 10 7 15 2",
    "42 6 1 15 8 5 10 13 0 3 4 2 7 14 9 11 12",
    "47 4 5 7 12 9 14 0 3 11 13 8 1 2 15 6 10",
]
"""Four of Korf's 100 instances, ``<optimal length> <tiles>``: 4×4 boards that need the pattern tables."""


def random_solvable(rng: random.Random, n: int) -> Board:
    while True:
        tiles = list(range(n * n))
        rng.shuffle(tiles)
        board = Board(tuple(tiles), n)
        if board.is_solvable():
            return board


def assert_legal_path(path, start):
    """Starts at ``start``, ends on the goal, every step is one move, and no board repeats."""
    assert path[0] == start
    assert path[-1].is_goal()
    for before, after in itertools.pairwise(path):
        assert before.move_to(after) is not None
    assert len(set(path)) == len(path)
