"""The answer every search gives: a path (or none), its counters and its provenance.

Searches are deterministic, instrumented and silent: each returns a :class:`SearchResult`
holding the path and the counters, and never prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.board import Board, Move


@dataclass(frozen=True)
class SearchResult:
    """A finished search.

    ``path`` runs from the start board to the goal (``None`` when the board is
    unsolvable); ``expanded`` counts nodes whose children were generated,
    ``generated`` the children created, ``seconds`` the wall time of the search.
    """

    path: tuple[Board, ...] | None
    expanded: int
    generated: int
    seconds: float
    algorithm: str
    heuristic: str

    @property
    def solvable(self) -> bool:
        return self.path is not None

    @property
    def moves(self) -> int:
        """Number of moves, or -1 when unsolvable (the Princeton convention)."""
        return -1 if self.path is None else len(self.path) - 1

    def move_list(self) -> list[Move]:
        """The moves of the path, in the blank-direction convention of :mod:`solver.board`."""
        if self.path is None:
            return []
        moves = [m for a, b in zip(self.path, self.path[1:]) if (m := a.move_to(b)) is not None]
        assert len(moves) == len(self.path) - 1, "a search returned a path with a step that is not a move"
        return moves


def unsolvable_result(algorithm: str, heuristic: str) -> SearchResult:
    return SearchResult(None, 0, 0, 0.0, algorithm, heuristic)
