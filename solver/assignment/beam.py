"""Local beam search: the incomplete, memory-bounded alternative the assignment compares with A*.

Level by level, every board of the beam is expanded; the children never seen before
are ranked by Manhattan distance and only the best ``width`` of them form the next
beam. The search succeeds when a child is the goal, and fails when the beam empties
(every child of the last level had been seen before). Because it keeps so little, it
can fail on a solvable board and its paths are usually longer than optimal.

Like :func:`solver.search.astar.astar` it is deterministic (ties go to the child generated
first, in the board's UP, DOWN, LEFT, RIGHT order), instrumented and silent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.astar import Node
from solver.search.result import SearchResult

SOLVED, BEAM_EMPTY, UNSOLVABLE = "solved", "beam-empty", "unsolvable"


@dataclass(frozen=True)
class BeamResult(SearchResult):
    """A :class:`SearchResult` that also says why a beam search ended.

    ``outcome`` is ``"solved"``, ``"beam-empty"`` (a solvable board the beam lost) or
    ``"unsolvable"``; ``path`` is ``None`` unless solved, so :attr:`solvable` is only
    meaningful together with ``outcome``. ``width`` is the beam width and ``levels``
    the number of levels expanded.
    """

    width: int = 1
    levels: int = 0
    outcome: str = SOLVED

    @property
    def failed(self) -> bool:
        """True when the board was solvable but the beam emptied before the goal."""
        return self.outcome == BEAM_EMPTY


def beam_search(start: Board, width: int, node_limit: int | None = None) -> BeamResult:
    """Beam search from ``start`` keeping ``width`` boards per level, ranked by Manhattan distance.

    Raises :class:`SearchLimitError` once more than ``node_limit`` boards are expanded.
    Unsolvable boards are recognised by parity before any search.

    >>> result = beam_search(Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8]), width=2)
    >>> result.outcome, result.moves, [m.label for m in result.move_list()]
    ('solved', 2, ['down', 'right'])
    """
    if width < 1:
        raise ValueError(f"beam width must be at least 1, found {width}")
    began = time.perf_counter()

    def finish(path: tuple[Board, ...] | None, outcome: str) -> BeamResult:
        return BeamResult(path, expanded, generated, time.perf_counter() - began, "beam", "manhattan",
                          width=width, levels=levels, outcome=outcome)

    expanded = generated = levels = 0
    if not start.is_solvable():
        return finish(None, UNSOLVABLE)
    root = Node(start, None, None, 0)
    if start.is_goal():
        return finish(root.path(), SOLVED)
    goal = Board.goal(start.n).tiles
    seen = {start.tiles}
    beam = [root]
    while beam:
        levels += 1
        children: list[tuple[int, int, Node]] = []
        for node in beam:
            expanded += 1
            if node_limit is not None and expanded > node_limit:
                raise SearchLimitError("beam search", node_limit, expanded)
            for move, child in node.board.successors():
                generated += 1
                if child.tiles in seen:
                    continue
                seen.add(child.tiles)
                child_node = Node(child, node, move, node.g + 1)
                if child.tiles == goal:
                    return finish(child_node.path(), SOLVED)
                children.append((child.manhattan(), len(children), child_node))
        children.sort(key=lambda entry: entry[:2])
        beam = [node for _, _, node in children[:width]]
    return finish(None, BEAM_EMPTY)
