"""What the game's buttons do: moves that slide, Undo, Shuffle, and the searches behind Solve,
Hint and a Shuffle to a chosen depth.

A search runs in a :class:`~solver.assignment.desktop.gui_solver.Job` thread (the solver's own optimal
method, so every board ``python -m solver`` solves is solved here too); the window polls it
every few hundredths of a second, showing its progress, so it stays responsive, and Cancel
drops it. A solution is then played one sliding move per ``delay_ms``.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from solver.assignment.desktop.gui_boards import (
    board_at_depth,
    depth_limit,
    exact_board_at_depth,
)
from solver.assignment.desktop.gui_model import INFO
from solver.assignment.desktop.gui_solver import Job, search
from solver.assignment.shell import random_walk
from solver.board import Board, Move
from solver.search.result import SearchResult

if TYPE_CHECKING:
    from solver.assignment.desktop.gui_board_view import BoardView
    from solver.assignment.desktop.gui_model import PuzzleModel

POLL_MS = 40
WALK_LIMIT = 1000
"""Most random moves of a shuffle on boards too large for a chosen optimal depth (5×5 and up)."""
SLIDE_MS = 110
"""How long a tile takes to slide after the player's move."""


class GameActions:
    """The actions of :class:`solver.assignment.desktop.gui_app.PuzzleApp` (which supplies the widgets)."""

    root: tk.Tk
    model: PuzzleModel
    view: BoardView
    hint_tile: int | None
    game_frame: tk.Frame | None
    difficulty_var: tk.StringVar
    depth_var: tk.StringVar
    on_solution: Callable[[Sequence[Board]], None] | None
    delay_var: tk.IntVar

    @property
    def delay_ms(self) -> int:
        """The pause between the moves of a played solution (the window's slider)."""
        return int(self.delay_var.get())

    def init_jobs(self) -> None:
        self.job: Job | None = None
        self.job_kind = ""

    def redraw(self) -> None: ...

    def show_status(self) -> None: ...

    def board_changed(self) -> None: ...

    # -- the player's moves -----------------------------------------------------------------
    def play(self, action: Callable[[], Move | None]) -> Move | None:
        """Make a move of the player's (a click, an arrow, Undo) and slide the tile that moved."""
        before = self.model.board
        move = action()
        if move is not None:
            self.hint_tile = None
            self.view.slide(before, self.model.board, SLIDE_MS)
            self.show_status()
        return move

    def undo(self) -> Move | None:
        if self.job is not None:
            return None
        return self.play(self.model.undo)

    # -- Shuffle -------------------------------------------------------------------------------
    def shuffle(self) -> None:
        """A new board: random, or a chosen number of moves from solved at best."""
        if self.job is not None or self.model.animating:
            return
        if self.difficulty_var.get() == "random":
            self.model.shuffle()
            self._new_board()
            return
        n, limit = self.model.n, depth_limit(self.model.n)
        most = limit if limit is not None else WALK_LIMIT
        try:
            depth = int(self.depth_var.get())
            if not 1 <= depth <= most:
                raise ValueError
        except ValueError:
            what = "an optimal depth" if limit is not None else "a number of random moves"
            self.model.search_failed(f"Shuffle to {what} from 1 to {most} on {n}x{n}; found {self.depth_var.get()!r}.")
            self.redraw()
            return
        if limit is None:  # too large to solve quickly: a walk of that many moves, at most that far from solved
            self.model.shuffle(random_walk(Board.goal(n), depth, self.model.rng))
            self._new_board()
            self.model.message = f"Shuffled with {depth} random moves: at most {depth} moves from solved."
            self.show_status()
            return
        if n <= 3:
            self.model.shuffle(exact_board_at_depth(n, depth, self.model.rng))
            self._say_depth(depth)
            return
        rng = self.model.rng
        self._start(Job(lambda job: board_at_depth(n, depth, rng, lambda board: search(board, job))), "shuffle")

    def _say_depth(self, depth: int) -> None:
        self._new_board()
        self.model.message = f"Shuffled: {depth} moves from solved at best. Your turn!"
        self.show_status()

    def _new_board(self) -> None:
        self.board_changed()
        self.redraw()

    # -- Solve and Hint ------------------------------------------------------------------------
    def solve(self) -> None:
        """Search for an optimal solution in the background, then play it."""
        if self.job is None and self.model.can_solve():
            board = self.model.board
            self._start(Job(lambda job: search(board, job)), "solve")
        self.redraw()

    def hint(self) -> None:
        """Search for an optimal solution in the background, then name its first move."""
        if self.job is None and self.model.can_solve():
            board = self.model.board
            self._start(Job(lambda job: search(board, job)), "hint")
        self.redraw()

    def cancel(self) -> None:
        if self.job is None:
            return
        self.job.cancel()
        self.job = None
        self.model.message, self.model.kind = "Cancelled.", INFO
        self.redraw()

    def _start(self, job: Job, kind: str) -> None:
        self.job, self.job_kind = job, kind
        self.model.message, self.model.kind = ("Searching…" if kind != "shuffle" else "Looking for a board…"), INFO
        self.show_status()
        self.root.after(POLL_MS, self._poll)

    def _poll(self) -> None:
        job = self.job
        if job is None or self.game_frame is None:
            return
        if not job.done:
            if job.progress.searched:
                self.model.message = job.progress.label
                self.show_status()
            self.root.after(POLL_MS, self._poll)
            return
        self.job = None
        if job.error is not None:
            self.model.search_failed(f"The search stopped: {job.error}")
        elif self.job_kind == "shuffle":
            board = job.result  # a shuffle job's result is its board
            self.model.shuffle(board if isinstance(board, Board) else None)
            self._say_depth(int(self.depth_var.get()))
            return
        else:
            self._found(cast(SearchResult, job.result).path)
            return
        self.redraw()

    def _found(self, path: Sequence[Board] | None) -> None:
        if path is None or path[0] != self.model.board:
            self.model.search_failed("The board changed during the search; press the button again.")
            self.redraw()
            return
        if self.job_kind == "hint":
            move = self.model.hint(path)
            self.hint_tile = path[0].tiles[path[1].blank] if move is not None else None
            self.redraw()
            return
        if self.on_solution is not None:
            self.on_solution(path)
        self.model.start_animation(path)
        self.hint_tile = None
        self.redraw()
        self.root.after(self.delay_ms, self._animate)

    def _animate(self) -> None:
        if self.game_frame is None or not self.model.animating:
            return
        before = self.model.board
        self.model.advance()
        self.view.slide(before, self.model.board, min(SLIDE_MS * 2, self.delay_ms * 2 // 3))
        self.show_status()
        if self.model.animating:
            self.root.after(self.delay_ms, self._animate)
