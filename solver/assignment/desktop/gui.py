"""``python -m solver gui``: play the N-puzzle in a Tk window, or watch A* solve a board.

The command checks its inputs and that a window can be opened; the window is in
:mod:`solver.assignment.desktop.gui_app` and the rules in :mod:`solver.assignment.desktop.gui_model`. Tk is
imported here lazily, so the rest of the CLI works on a Python without Tk.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from solver.errors import SolverError

if TYPE_CHECKING:
    from solver.board import Board

GUI_MAX_N = 12
"""Largest board a puzzle file may hold for the window (the tiles stay at least 40 pixels)."""


class GuiUnavailableError(SolverError):
    """No window can be opened: Tk is missing or there is no display."""

    exit_code = 2


class PictureUnreadableError(SolverError):
    """The picture given with --image cannot be used."""

    exit_code = 3


@click.command("gui")
@click.argument("puzzle", metavar="[PUZZLE]", required=False)
@click.option("--size", "-n", type=click.IntRange(2, 8), default=3, show_default=True, help="Board size N of a game.")
@click.option("--image", type=click.Path(exists=True, dir_okay=False),
              help="A picture (JPEG, PNG, GIF, … anything Pillow reads) to cut into tiles.")
@click.option("--numbers", is_flag=True, help="Numbered tiles instead of the picture the game ships with.")
@click.option("--seed", type=int, default=None, help="Seed for the random start and Shuffle, for repeatable games.")
@click.option("--delay", "delay_ms", type=click.IntRange(1, 5000), default=350, show_default=True,
              help="Milliseconds between the moves of an animated solution.")
@click.option("--solve", "autoplay", is_flag=True,
              help="With PUZZLE: solve it at once, print the solution and animate it (the sheet's main).")
def gui(puzzle: str | None, size: int, image: str | None, numbers: bool, seed: int | None, delay_ms: int,
        autoplay: bool) -> int:
    """Open the puzzle window.

    Without PUZZLE: a start screen, then a game on a random solvable NxN board, with picture
    tiles (the game's own picture, or --image) or numbers. Click a tile next to the blank or
    press an arrow key to move the blank (Ctrl+Z undoes); Shuffle makes a random board or one
    a chosen number of moves from solved; Solve finds an optimal solution with the solver's own
    method (in the background, with progress and Cancel) and plays it; Hint names its first
    move; "A* step by step" shows the search expanding one board at a time with g, h and f.
    Type a board (e.g. 1 2 3 4 5 6 8 7 0) to try your own: an unsolvable one turns the board red.

    With PUZZLE (a puzzle file as `python -m solver` reads it, '-' for stdin): the window
    opens on that board with numbered tiles; Solve (or --solve) plays its solution, and the
    solution is also printed in the output-file format.
    """
    board = None
    if puzzle is not None:
        from solver.fileio import read_input
        from solver.formats import parse_puzzle

        board = parse_puzzle(read_input(puzzle), "<stdin>" if puzzle == "-" else puzzle, max_n=GUI_MAX_N)
    elif autoplay:
        raise click.UsageError("--solve needs a PUZZLE file to solve")
    try:
        import tkinter

        from solver.assignment.desktop.gui_app import PuzzleApp
        from solver.assignment.desktop.gui_root import new_root
        from solver.assignment.picture import PictureError
    except ImportError as exc:
        raise GuiUnavailableError(f"the GUI needs Tk, which this Python lacks ({exc}); "
                                  "install python3-tk") from None
    try:
        root = new_root()  # its interpreter is deleted in this thread only (see gui_root)
    except tkinter.TclError as exc:
        raise GuiUnavailableError(f"cannot open a window: {exc} (is DISPLAY set?)") from None

    def print_solution(path: Sequence[Board]) -> None:
        from solver.formats import format_solution

        sys.stdout.write(format_solution(list(path)))
        sys.stdout.flush()

    if board is not None and autoplay and (board.is_goal() or not board.is_solvable()):
        from solver.formats import format_solution

        # Nothing to animate, but the sheet's main still prints its answer.
        sys.stdout.write(format_solution([board] if board.is_goal() else None))
        sys.stdout.flush()

    try:
        PuzzleApp(root, size=size, image=image, seed=seed, delay_ms=delay_ms, board=board, numbers=numbers,
                  autoplay=autoplay, on_solution=print_solution if board is not None else None)
    except PictureError as exc:
        root.destroy()
        raise PictureUnreadableError(str(exc)) from None
    root.mainloop()
    return 0
