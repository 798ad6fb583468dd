"""The GUI's state and rules, free of Tk so they can be tested without a display.

:class:`PuzzleModel` holds the board, the status message the window shows, and the
queue of animation steps of a solution. The Tk window (:mod:`solver.assignment.desktop.gui_app`) only
draws the model and forwards clicks and buttons to it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from solver.assignment.desktop.gui_boards import random_board
from solver.assignment.states import StateError, parse_state
from solver.board import Board, Move

INFO, SOLVED, ERROR = "info", "solved", "error"
NOT_SOLVABLE = "Puzzle not solvable"


@dataclass(frozen=True)
class Step:
    """One move of an animated solution: the move, the board after it, and its place in the solution."""

    move: Move
    board: Board
    number: int
    total: int

    @property
    def label(self) -> str:
        """What the window shows during the step.

        >>> Step(Move.UP, Board.goal(2), 1, 3).label
        'Move 1 of 3: up'
        """
        return f"Move {self.number} of {self.total}: {self.move.label}"


def solution_steps(path: Sequence[Board]) -> list[Step]:
    """The animation steps of a path from the current board to the goal.

    >>> [s.label for s in solution_steps([Board.from_tiles([1, 2, 0, 3]), Board.goal(2)])]
    ['Move 1 of 1: right']
    """
    steps = []
    for number, (before, after) in enumerate(pairwise(path), start=1):
        move = before.move_to(after)
        if move is None:
            raise ValueError(f"boards {number} and {number + 1} of the path are not one move apart")
        steps.append(Step(move, after, number, len(path) - 1))
    return steps


class PuzzleModel:
    """The puzzle as the window shows it. A new game starts on a random solvable board (as the
    sheet says), unless ``board`` is given.

    >>> model = PuzzleModel(3, board=Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 0, 8]))
    >>> model.click(2, 2)     # the tile right of the blank slides left: the blank moves right
    <Move.RIGHT: (0, 1)>
    >>> model.message, model.kind
    ('Solved in 1 move!', 'solved')
    >>> PuzzleModel(3, seed=1).board.is_goal(), PuzzleModel(3, seed=1).board.is_solvable()
    (False, True)
    """

    def __init__(self, n: int = 3, seed: int | None = None, board: Board | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if n < 2:
            raise ValueError(f"board size must be at least 2, found {n}")
        self.rng = random.Random(seed)
        self.clock = clock
        self.board = board if board is not None else Board.goal(n)
        self.moves_made = 0
        self.history: list[Board] = []  # the boards before each of the player's moves, for Undo
        self.started: float | None = None  # the timer runs from the player's first move ...
        self.stopped: float | None = None  # ... until the goal
        self.animation: list[Step] = []
        if board is None:
            self.shuffle()
            self._say("Click a tile or press an arrow key to move.")
        elif not board.is_solvable():
            self._say(NOT_SOLVABLE, ERROR)
        else:
            self._say("Click a tile next to the blank, use the arrow keys, or press Solve.")

    @property
    def n(self) -> int:
        return self.board.n

    @property
    def animating(self) -> bool:
        return bool(self.animation)

    def _say(self, message: str, kind: str = INFO) -> None:
        self.message, self.kind = message, kind

    def _set_board(self, board: Board) -> None:
        self.board, self.moves_made, self.animation, self.history = board, 0, [], []
        self.started = self.stopped = None

    def elapsed(self) -> float:
        """Seconds on the timer: from the player's first move on this board to the goal (or now)."""
        if self.started is None:
            return 0.0
        return (self.stopped if self.stopped is not None else self.clock()) - self.started

    @property
    def timer_label(self) -> str:
        """The timer as minutes and seconds.

        >>> PuzzleModel(board=Board.goal(3)).timer_label
        '0:00'
        """
        minutes, seconds = divmod(int(self.elapsed()), 60)
        return f"{minutes}:{seconds:02d}"

    # -- player actions -----------------------------------------------------------
    def shuffle(self, board: Board | None = None) -> None:
        """A new board: ``board`` (Shuffle's chosen difficulty, see :mod:`solver.assignment.desktop.gui_boards`),
        or else a uniformly random solvable one."""
        self._set_board(board if board is not None else random_board(self.n, self.rng))
        self._say("Shuffled. Slide the tiles back, or press Solve.")

    @property
    def solvable(self) -> bool:
        """Whether the board shown can reach the goal (the window turns red when it cannot)."""
        return self.board.is_solvable()

    def click(self, row: int, col: int) -> Move | None:
        """Slide the tile at (row, col) into the blank if it is next to it; the move the blank made."""
        if self.animating or not (0 <= row < self.n and 0 <= col < self.n):
            return None
        blank_row, blank_col = divmod(self.board.blank, self.n)
        step = (row - blank_row, col - blank_col)
        move = next((m for m in Move if m.value == step), None)
        if move is None:
            return None
        return self.move_blank(move)

    def move_blank(self, move: Move) -> Move | None:
        """Move the blank one step (an arrow key: Up moves the blank up); ``None`` at the edge.

        >>> model = PuzzleModel(board=Board.goal(3))
        >>> model.move_blank(Move.DOWN), model.move_blank(Move.LEFT), model.board.blank, model.moves_made
        (None, <Move.LEFT: (0, -1)>, 7, 1)
        """
        if self.animating:
            return None
        try:
            after = self.board.apply(move)
        except ValueError:
            return None
        self.history.append(self.board)
        self.board = after
        self.moves_made += 1
        if self.started is None or self.stopped is not None:
            self.started, self.stopped = self.clock(), None
        if self.board.is_goal():
            self.stopped = self.clock()
            self._say(f"Solved in {self.moves_made} move{'' if self.moves_made == 1 else 's'}!", SOLVED)
        else:
            self._say(f"{self.moves_made} move{'' if self.moves_made == 1 else 's'}: {move.label}")
        return move

    def undo(self) -> Move | None:
        """Take the player's last move back (it no longer counts); the move the blank made, or None."""
        if self.animating or not self.history:
            return None
        before = self.history.pop()
        move = self.board.move_to(before)
        self.board = before
        self.moves_made -= 1
        self.stopped = None
        self._say(f"Undone: {self.moves_made} move{'' if self.moves_made == 1 else 's'}")
        return move

    def hint(self, path: Sequence[Board] | None) -> Move | None:
        """Say the next move of an optimal solution ``path`` from the board shown; that move, or None."""
        if not path or path[0] != self.board or len(path) < 2:
            return None
        move = path[0].move_to(path[1])
        assert move is not None
        tile = path[0].tiles[path[1].blank]
        self._say(f"Hint: slide tile {tile} (the blank moves {move.label}); {len(path) - 1} moves to go "
                  f"at best.")
        return move

    def set_custom(self, text: str) -> bool:
        """Show a board typed by the player (``1 2 3 4 5 6 7 8 0``, ``b12 345 678``, commas allowed).

        An unreadable board leaves the board as it was; an unsolvable one is shown with
        :data:`NOT_SOLVABLE`. Returns whether the board was taken.
        """
        try:
            board = parse_state(text.replace(",", " ").split())
        except StateError as exc:
            self._say(f"Cannot use that board: {exc}", ERROR)
            return False
        self._set_board(board)
        if not board.is_solvable():
            self._say(NOT_SOLVABLE, ERROR)
        elif board.is_goal():
            self._say("That board is already solved.", SOLVED)
        else:
            self._say("Your board is ready. Slide the tiles, or press Solve.")
        return True

    # -- solving and animation ----------------------------------------------------
    def can_solve(self) -> bool:
        """Whether Solve should search; says why not when it should not."""
        if self.animating:
            return False
        if not self.board.is_solvable():
            self._say(NOT_SOLVABLE, ERROR)
            return False
        if self.board.is_goal():
            self._say("Already solved.", SOLVED)
            return False
        return True

    def start_animation(self, path: Sequence[Board]) -> None:
        """Queue a solution found for the current board (its first board must be the current one)."""
        if not path or path[0] != self.board:
            raise ValueError("the solution does not start at the board shown")
        self.animation = solution_steps(path)
        self.moves_made, self.history = 0, []
        self.started = self.stopped = None
        self._say(f"Optimal solution: {len(self.animation)} moves.")

    def advance(self) -> Step | None:
        """Play the next animation step; ``None`` when there is none left.

        The solver's moves are not the player's: the move counter stays at 0 during the
        animation and after it, so the player's next move counts as move 1.
        """
        if not self.animation:
            return None
        step = self.animation.pop(0)
        self.board = step.board
        self.moves_made = 0
        if self.animation:
            self._say(step.label)
        else:
            self._say(f"{step.label}. Solved!", SOLVED)
        return step

    def search_failed(self, reason: str) -> None:
        self._say(reason, ERROR)
