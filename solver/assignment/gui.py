"""``python -m solver gui``: play the N-puzzle in a Tk window, or watch A* solve it.

The command only checks that a window can be opened; the window is in
:mod:`solver.assignment.gui_app` and the rules in :mod:`solver.assignment.gui_model`. Tk is imported
here lazily, so the rest of the CLI works on a Python without Tk.
"""

from __future__ import annotations

import click

from solver.errors import SolverError


class GuiUnavailableError(SolverError):
    """No window can be opened: Tk is missing or there is no display."""

    exit_code = 2


@click.command("gui")
@click.option("--size", "-n", type=click.IntRange(2, 8), default=3, show_default=True, help="Board size N.")
@click.option("--image", type=click.Path(exists=True, dir_okay=False),
              help="A PNG or GIF picture to cut into tiles instead of numbers.")
@click.option("--seed", type=int, default=None, help="Seed for Shuffle, for repeatable games.")
@click.option("--delay", "delay_ms", type=click.IntRange(1, 5000), default=350, show_default=True,
              help="Milliseconds between the moves of an animated solution.")
def gui(size: int, image: str | None, seed: int | None, delay_ms: int) -> int:
    """Open the puzzle window: a start screen, then an NxN board of numbered or picture tiles.

    Click a tile next to the blank to slide it; Shuffle scrambles; Solve animates an
    optimal solution move by move; type a board (e.g. 1 2 3 4 5 6 8 7 0) to try your own.
    """
    try:
        import tkinter

        from solver.assignment.gui_app import PuzzleApp
    except ImportError as exc:
        raise GuiUnavailableError(f"the GUI needs Tk, which this Python lacks ({exc}); "
                                  "install python3-tk") from None
    try:
        root = tkinter.Tk()
    except tkinter.TclError as exc:
        raise GuiUnavailableError(f"cannot open a window: {exc} (is DISPLAY set?)") from None
    PuzzleApp(root, size=size, image=image, seed=seed, delay_ms=delay_ms)
    root.mainloop()
    return 0
