"""The game's step-through view: A* on the board shown, one expansion per click, with the node
expanded drawn small and its g, h and f, and the frontier and expanded counts beside it.

The search is :class:`solver.assignment.desktop.gui_stepper.AStarStepper`; this module only draws it.
"""

from __future__ import annotations

import tkinter as tk

from solver.assignment.desktop.gui_board_view import COLORS
from solver.assignment.desktop.gui_stepper import HEURISTICS, AStarStepper, Expansion
from solver.board import Board

CELL = 34
FIELDS = ("g", "h", "f", "frontier", "expanded")
EXPLAIN = {"g": "moves from the start", "h": "estimate of the moves left", "f": "g + h, the order of expansion",
           "frontier": "boards waiting", "expanded": "boards expanded"}


class SearchView(tk.LabelFrame):
    """A* step by step on a board; :meth:`restart` puts it on a new board."""

    def __init__(self, master: tk.Misc, board: Board) -> None:
        super().__init__(master, text="A* step by step", padx=8, pady=6)
        self.heuristic_var = tk.StringVar(value=next(iter(HEURISTICS)))
        for name in HEURISTICS:
            tk.Radiobutton(self, text=name, variable=self.heuristic_var, value=name,
                           command=lambda: self.restart(self.stepper.start)).pack(anchor="w")
        self.node_canvas = tk.Canvas(self, highlightthickness=0, bg=COLORS["board"])
        self.node_canvas.pack(pady=6)
        self.values: dict[str, tk.Label] = {}
        grid = tk.Frame(self)
        grid.pack(anchor="w")
        for row, field in enumerate(FIELDS):
            tk.Label(grid, text=f"{field}:", font=("Helvetica", 11, "bold")).grid(row=row, column=0, sticky="e")
            self.values[field] = tk.Label(grid, text="-", font=("Helvetica", 11, "bold"), width=7, anchor="w")
            self.values[field].grid(row=row, column=1, sticky="w")
            tk.Label(grid, text=EXPLAIN[field], fg="#555555").grid(row=row, column=2, sticky="w")
        self.note = tk.Label(self, text="", wraplength=260, justify="left")
        self.note.pack(anchor="w", pady=(6, 4))
        buttons = tk.Frame(self)
        buttons.pack(anchor="w")
        self.step_button = tk.Button(buttons, text="Step", width=6, command=lambda: self.step(1))
        self.many_button = tk.Button(buttons, text="100 steps", width=8, command=lambda: self.step(100))
        self.restart_button = tk.Button(buttons, text="Restart", width=7,
                                        command=lambda: self.restart(self.stepper.start))
        for button in (self.step_button, self.many_button, self.restart_button):
            button.pack(side="left", padx=2)
        self.restart(board)

    @property
    def heuristic(self) -> str:
        return HEURISTICS[self.heuristic_var.get()]

    def restart(self, board: Board) -> None:
        self.stepper = AStarStepper(board, self.heuristic)
        self._show(None)

    def step(self, count: int = 1) -> Expansion | None:
        """Expand up to ``count`` nodes (stopping at the goal); the last one expanded."""
        shown = None
        for _ in range(count):
            expansion = self.stepper.step()
            if expansion is None:
                break
            shown = expansion
        if shown is not None:
            self._show(shown)
        return shown

    def _show(self, expansion: Expansion | None) -> None:
        board = expansion.board if expansion is not None else self.stepper.start
        self._draw(board)
        if expansion is None:
            for label in self.values.values():
                label.config(text="-")
            note = "Press Step: A* takes the frontier's board with the lowest f and expands it."
            if not board.is_solvable():
                note += (" This board cannot reach the goal: A* would expand every board it can reach, half of "
                         "all arrangements, and never find it.")
            self.note.config(text=note, fg="black")
            return
        for field in FIELDS:
            self.values[field].config(text=f"{getattr(expansion, field):,}")
        if expansion.goal:
            self.note.config(text=f"Goal expanded: the optimal solution has {expansion.g} moves.", fg=COLORS["correct"])
        else:
            self.note.config(text=f"Expanded a board {expansion.g} moves from the start; its neighbours "
                                  f"join the frontier.", fg="black")

    def _draw(self, board: Board) -> None:
        canvas, n = self.node_canvas, board.n
        cell = max(14, min(CELL, 200 // n))
        canvas.config(width=n * cell + 2, height=n * cell + 2)
        canvas.delete("all")
        for index, tile in enumerate(board.tiles):
            if tile:
                row, col = divmod(index, n)
                x, y = col * cell + 2, row * cell + 2
                color = COLORS["correct"] if tile == index + 1 else COLORS["tile"]
                canvas.create_rectangle(x, y, x + cell - 2, y + cell - 2, fill=color, outline="", tags=("node",))
                canvas.create_text(x + cell / 2 - 1, y + cell / 2 - 1, text=str(tile), fill="white",
                                   font=("Helvetica", max(8, cell // 3), "bold"), tags=("node",))
