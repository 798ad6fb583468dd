"""Junk: a Board that keeps nothing and whose every method raises (the trick, if any, is prepended)."""


class Board:
    def __init__(self, tiles):
        self.unused = None

    def dimension(self):
        raise RuntimeError("junk")

    def hamming(self):
        raise RuntimeError("junk")

    def manhattan(self):
        raise RuntimeError("junk")

    def isGoal(self):
        raise RuntimeError("junk")

    def neighbors(self):
        raise RuntimeError("junk")

    def twin(self):
        raise RuntimeError("junk")

    def equals(self, other):
        raise RuntimeError("junk")

    def toString(self):
        raise RuntimeError("junk")
