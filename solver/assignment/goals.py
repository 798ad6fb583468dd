"""Which board counts as solved: the command sheet's ``b12 345 678`` (blank first) or ``123 456 78b``.

The searches all aim at the standard goal, blank last. A blank-first goal is reached by
searching the mirrored board (:meth:`solver.board.Board.standardized`: turned 180° and
relabelled), which has the same distance, the same h1 and h2 values and the same
solvability, and mapping the path back; the map is its own inverse.

>>> Goal.BLANK_FIRST.board(3).tiles
(0, 1, 2, 3, 4, 5, 6, 7, 8)
>>> parse_goal("123 456 78b") is Goal.BLANK_LAST, parse_goal("blank-first") is Goal.BLANK_FIRST
(True, True)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import TypeVar

from solver.board import Board
from solver.search.result import SearchResult

ResultT = TypeVar("ResultT", bound=SearchResult)


class Goal(enum.Enum):
    """A goal convention; the value is the name ``--goal`` takes."""

    BLANK_FIRST = "blank-first"
    BLANK_LAST = "blank-last"

    @property
    def blank_first(self) -> bool:
        return self is Goal.BLANK_FIRST

    def board(self, n: int) -> Board:
        """The goal board of size ``n``."""
        return Board.goal(n, blank_first=self.blank_first)

    def to_standard(self, board: Board) -> Board:
        """The board whose distance to the standard goal is this board's distance to this goal."""
        return board.standardized(self.blank_first)

    def from_standard_path(self, path: Sequence[Board] | None) -> tuple[Board, ...] | None:
        """A path found on :meth:`to_standard` boards, as the boards of this goal's puzzle."""
        if path is None:
            return None
        return tuple(board.standardized(self.blank_first) for board in path)

    def result(self, result: ResultT) -> ResultT:
        """A search result on the standard board, with its path mapped back (the counters stay)."""
        if not self.blank_first or result.path is None:
            return result
        return dataclasses.replace(result, path=self.from_standard_path(result.path))


GOAL_SPELLINGS = {
    "blank-first": Goal.BLANK_FIRST, "b12 345 678": Goal.BLANK_FIRST, "b12345678": Goal.BLANK_FIRST,
    "blank-last": Goal.BLANK_LAST, "123 456 78b": Goal.BLANK_LAST, "12345678b": Goal.BLANK_LAST,
}


def parse_goal(text: str) -> Goal:
    """A goal from ``--goal``: ``blank-first`` (``b12 345 678``) or ``blank-last`` (``123 456 78b``);
    raises ``ValueError`` naming the accepted spellings."""
    key = " ".join(text.lower().replace("0", "b").split())
    try:
        return GOAL_SPELLINGS[key]
    except KeyError:
        raise ValueError(f"expected blank-first (b12 345 678, the command sheet's goal) or blank-last "
                         f"(123 456 78b), found {text!r}") from None
