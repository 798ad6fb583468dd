"""Junk: a Solver that never searches and whose every method raises."""

from board import Board  # noqa: F401  (the reference Board substitution replaces this name)


class Solver:
    def __init__(self, initial):
        self.initial = initial

    def isSolvable(self):
        raise RuntimeError("junk")

    def moves(self):
        raise RuntimeError("junk")

    def solution(self):
        raise RuntimeError("junk")
