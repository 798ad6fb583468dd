"""The Tk window of ``python -m solver gui``: a start screen, then the board and its controls.

Only layout and event wiring live here: the rules are in :mod:`solver.assignment.desktop.gui_model`,
the canvas in :mod:`solver.assignment.desktop.gui_board_view`, the searches and their threads in
:mod:`solver.assignment.desktop.gui_jobs`, the step-through view in
:mod:`solver.assignment.desktop.gui_search_view`, and the pictures in :mod:`solver.assignment.desktop.gui_pieces`.
"""

from __future__ import annotations

import functools
import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import filedialog

from solver.assignment.desktop.gui_board_view import BoardView
from solver.assignment.desktop.gui_jobs import GameActions
from solver.assignment.desktop.gui_model import PuzzleModel
from solver.assignment.desktop.gui_pieces import cut, load_source
from solver.assignment.desktop.gui_search_view import SearchView
from solver.assignment.picture import PictureError
from solver.board import Board, Move

TITLE = "N-Puzzle"
COLORS = {"info": "black", "solved": "#1c7c32", "error": "red"}
ARROWS = {"Up": Move.UP, "Down": Move.DOWN, "Left": Move.LEFT, "Right": Move.RIGHT}
"""Arrow keys move the blank that way (the sheet's base code)."""
STATUS_WIDTH = 360
"""Least width, in pixels, before the status wraps: a long message wraps onto more lines, never cut."""


class PuzzleApp(GameActions):
    """The whole window. ``delay_ms`` is the pause between the moves of a played solution.

    With ``board`` the window opens straight on that board (numbered tiles unless ``image``
    is given); ``autoplay`` then solves and plays it at once, and ``on_solution`` receives the
    solution's boards when a search finishes. Without it, the start screen comes first and a
    game starts on a random solvable board, with the picture tiles of ``image`` (any format
    Pillow reads), or of the game's own picture, or numbers if ``numbers``.
    """

    def __init__(self, root: tk.Tk, size: int = 3, image: str | None = None, seed: int | None = None,
                 delay_ms: int = 350, board: Board | None = None, numbers: bool = False, autoplay: bool = False,
                 on_solution: Callable[[Sequence[Board]], None] | None = None) -> None:
        self.root, self.seed, self.on_solution = root, seed, on_solution
        self.model = PuzzleModel(size, seed) if board is None else PuzzleModel(board.n, seed, board=board)
        self.source_picture: object | None = None  # a PIL image, or a tk.PhotoImage without Pillow
        self.game_frame: tk.Frame | None = None
        self.search_view: SearchView | None = None
        self.hint_tile: int | None = None
        self.delay_var = tk.IntVar(master=root, value=delay_ms)
        self.init_jobs()
        root.title(TITLE)
        root.resizable(False, False)
        for key, move in ARROWS.items():
            root.bind(f"<KeyPress-{key}>", functools.partial(self._on_arrow, move=move))
        root.bind("<Control-z>", self._on_undo_key)
        self.start_frame = self._build_start(size, image, numbers or (board is not None and image is None))
        if board is None:
            self.start_frame.pack(padx=30, pady=24)
            return
        if not numbers and image is not None and not self._load_picture(image, board.n):
            raise PictureError(self.start_message.cget("text"))
        self._build_game()
        if autoplay:
            self.solve()

    # -- start screen ------------------------------------------------------------
    def _build_start(self, size: int, image: str | None, numbers: bool) -> tk.Frame:
        frame = tk.Frame(self.root)
        tk.Label(frame, text=TITLE, font=("Helvetica", 28, "bold")).grid(row=0, column=0, columnspan=3, pady=(0, 4))
        tk.Label(frame, text="Slide the tiles into order, let the solver show an optimal way,\n"
                             "or step through A* and watch it think.").grid(row=1, column=0, columnspan=3, pady=(0, 16))
        tk.Label(frame, text="Board size N:").grid(row=2, column=0, sticky="e")
        self.size_var = tk.StringVar(value=str(size))
        tk.Spinbox(frame, from_=2, to=8, width=4, textvariable=self.size_var).grid(row=2, column=1, sticky="w")
        self.tiles_var = tk.StringVar(value="numbers" if numbers else "picture")
        tk.Radiobutton(frame, text="Picture tiles", variable=self.tiles_var, value="picture").grid(
            row=3, column=0, sticky="e", pady=(6, 0))
        tk.Radiobutton(frame, text="Numbered tiles", variable=self.tiles_var, value="numbers").grid(
            row=3, column=1, sticky="w", pady=(6, 0))
        tk.Label(frame, text="Picture (JPEG, PNG, GIF, …; empty: the game's own):").grid(
            row=4, column=0, sticky="e", pady=6)
        self.image_var = tk.StringVar(value=image or "")
        tk.Entry(frame, textvariable=self.image_var, width=28).grid(row=4, column=1, sticky="w")
        tk.Button(frame, text="Browse…", command=self._browse).grid(row=4, column=2, padx=4)
        self.start_button = tk.Button(frame, text="Start", width=12, command=self.start)
        self.start_button.grid(row=5, column=0, columnspan=3, pady=(14, 4))
        self.start_message = tk.Label(frame, text="", fg=COLORS["error"], wraplength=520, justify="left")
        self.start_message.grid(row=6, column=0, columnspan=3)
        return frame

    def _browse(self) -> None:
        path = filedialog.askopenfilename(filetypes=[("Pictures", "*.jpg *.jpeg *.png *.gif *.bmp *.webp *.tif *.tiff"),
                                                     ("All files", "*")])
        if path:
            self.image_var.set(path)
            self.tiles_var.set("picture")

    def start(self) -> bool:
        """Leave the start screen for a random solvable board of the chosen size (and picture)."""
        try:
            n = int(self.size_var.get())
            if not 2 <= n <= 8:
                raise ValueError
        except ValueError:
            self.start_message.config(text=f"Board size must be a whole number from 2 to 8, "
                                           f"not {self.size_var.get()!r}")
            return False
        self.source_picture = None
        if self.tiles_var.get() == "picture" and not self._load_picture(self.image_var.get().strip() or None, n):
            return False
        self.model = PuzzleModel(n, self.seed)
        self.start_frame.pack_forget()
        self._build_game()
        return True

    def _load_picture(self, path: str | None, n: int) -> bool:
        """Load the picture (the game's own when ``path`` is None); say why not on the start screen."""
        try:
            self.source_picture = load_source(self.root, path, n)
        except PictureError as exc:
            self.source_picture = None
            self.start_message.config(text=str(exc))
            return False
        return True

    def _fit_picture(self, n: int) -> None:
        """Cut the picture for an N×N board (numbered tiles without one)."""
        view = self.view
        picture = self.source_picture
        view.picture, view.pieces = (None, {}) if picture is None else cut(self.root, picture, n)

    @property
    def picture(self) -> tk.PhotoImage | None:
        return self.view.picture

    @property
    def pieces(self) -> dict[int, tk.PhotoImage]:
        return self.view.pieces

    # -- game screen ---------------------------------------------------------------
    def _build_game(self) -> None:
        if self.game_frame is not None:
            self.game_frame.destroy()
        frame = self.game_frame = tk.Frame(self.root)
        left = tk.Frame(frame)
        left.grid(row=0, column=0, sticky="n")
        self.canvas = tk.Canvas(left, highlightthickness=0)
        self.canvas.pack(pady=(0, 8))
        self.canvas.bind("<Button-1>", self._on_click)
        self.view = BoardView(self.canvas, self.root.after)
        self.status = tk.Label(left, text="", font=("Helvetica", 13), justify="center", wraplength=STATUS_WIDTH)
        self.status.pack(fill="x", pady=(0, 4))
        self.info = tk.Label(left, text="", font=("Helvetica", 12))
        self.info.pack(pady=(0, 6))
        self._build_buttons(left)
        self._build_options(left)
        self.search_frame = frame
        frame.pack(padx=16, pady=16)
        self._fit_picture(self.model.n)
        self.redraw()
        self.canvas.focus_set()
        self.root.after(250, self._tick)

    def _build_buttons(self, parent: tk.Frame) -> None:
        rows = [tk.Frame(parent), tk.Frame(parent)]
        for row in rows:
            row.pack(pady=2)
        make = tk.Button
        self.shuffle_button = make(rows[0], text="Shuffle", width=8, command=self.shuffle)
        self.solve_button = make(rows[0], text="Solve", width=8, command=self.solve)
        self.hint_button = make(rows[0], text="Hint", width=8, command=self.hint)
        self.undo_button = make(rows[0], text="Undo", width=8, command=self.undo)
        self.steps_button = make(rows[1], text="A* step by step", width=14, command=self.toggle_search_view)
        self.cancel_button = make(rows[1], text="Cancel", width=8, command=self.cancel)
        self.back_button = make(rows[1], text="New game", width=8, command=self.back)
        for button in (self.shuffle_button, self.solve_button, self.hint_button, self.undo_button,
                       self.steps_button, self.cancel_button, self.back_button):
            button.pack(side="left", padx=3)

    def _build_options(self, parent: tk.Frame) -> None:
        shuffle = tk.Frame(parent)
        shuffle.pack(pady=(8, 0))
        tk.Label(shuffle, text="Shuffle to:").pack(side="left")
        self.difficulty_var = tk.StringVar(value="random")
        tk.Radiobutton(shuffle, text="a random board", variable=self.difficulty_var, value="random").pack(side="left")
        tk.Radiobutton(shuffle, text="optimal depth", variable=self.difficulty_var, value="depth").pack(side="left")
        self.depth_var = tk.StringVar(value="20")
        self.depth_entry = tk.Spinbox(shuffle, from_=1, to=80, width=4, textvariable=self.depth_var)
        self.depth_entry.pack(side="left")
        speed = tk.Frame(parent)
        speed.pack()
        tk.Label(speed, text="Pause between solution moves (ms):").pack(side="left", pady=(12, 0))
        tk.Scale(speed, from_=1, to=5000, orient="horizontal", length=160, variable=self.delay_var,
                 showvalue=True).pack(side="left")
        custom = tk.Frame(parent)
        custom.pack(pady=(4, 0))
        tk.Label(custom, text="Your board:").pack(side="left")
        self.custom_var = tk.StringVar()
        self.custom_entry = tk.Entry(custom, textvariable=self.custom_var, width=26)
        self.custom_entry.pack(side="left", padx=4)
        self.custom_entry.bind("<Return>", lambda _: self.set_custom())
        self.custom_button = tk.Button(custom, text="Set", command=self.set_custom)
        self.custom_button.pack(side="left")

    def redraw(self) -> None:
        """Draw the board as it stands, the status, the counters and which buttons work now."""
        self.view.draw(self.model.board, self.hint_tile)
        self.show_status()

    def show_status(self) -> None:
        model = self.model
        self.status.config(text=model.message, fg=COLORS.get(model.kind, COLORS["info"]),
                           wraplength=max(STATUS_WIDTH, int(self.canvas.cget("width"))))
        self.info.config(text=f"Moves: {model.moves_made}    Time: {model.timer_label}")
        busy = model.animating or self.job is not None
        for widget in (self.shuffle_button, self.solve_button, self.hint_button, self.back_button,
                       self.custom_button):
            widget.config(state="disabled" if busy else "normal")
        self.undo_button.config(state="normal" if model.history and not busy else "disabled")
        self.cancel_button.config(state="normal" if self.job is not None else "disabled")

    def _tick(self) -> None:
        """Keep the timer running on screen."""
        if self.game_frame is None or not self.game_frame.winfo_exists():
            return
        self.info.config(text=f"Moves: {self.model.moves_made}    Time: {self.model.timer_label}")
        self.root.after(250, self._tick)

    def cell_at(self, x: int, y: int) -> tuple[int, int]:
        """The (row, column) under canvas point (x, y)."""
        return y // self.view.size, x // self.view.size

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        """Canvas coordinates of a cell's centre (for tests and accessibility tools)."""
        size = self.view.size
        return col * size + size // 2, row * size + size // 2

    # -- the step-through view ---------------------------------------------------------
    def toggle_search_view(self) -> None:
        """Show A* step by step on the board shown, beside it, or hide it."""
        if self.search_view is not None:
            self.search_view.destroy()
            self.search_view = None
            return
        self.search_view = SearchView(self.search_frame, self.model.board)
        self.search_view.grid(row=0, column=1, sticky="n", padx=(16, 0))

    def board_changed(self) -> None:
        """A new board (shuffled, typed, a new size): the step-through view starts on it."""
        self.hint_tile = None
        if self.search_view is not None:
            self.search_view.restart(self.model.board)

    # -- input ---------------------------------------------------------------------------
    def _on_click(self, event: tk.Event) -> None:
        self.canvas.focus_set()
        if self.job is None:
            self.play(lambda: self.model.click(*self.cell_at(event.x, event.y)))

    def _on_arrow(self, event: tk.Event, move: Move) -> str | None:
        if self.game_frame is None or isinstance(event.widget, (tk.Entry, tk.Spinbox)):
            return None  # the arrows edit the text being typed
        if self.job is None:
            self.play(lambda: self.model.move_blank(move))
        return "break"

    def _on_undo_key(self, event: tk.Event) -> str | None:
        if self.game_frame is None or isinstance(event.widget, (tk.Entry, tk.Spinbox)):
            return None
        self.undo()
        return "break"

    def set_custom(self) -> None:
        old_n = self.model.n
        if self.model.set_custom(self.custom_var.get()):
            if self.model.n != old_n:
                self._fit_picture(self.model.n)  # the board's size changed: cut the picture again
            self.board_changed()
        self.redraw()

    def back(self) -> None:
        if self.game_frame is not None:
            self.game_frame.destroy()
            self.game_frame = None
            self.search_view = None
        self.start_message.config(text="")
        self.start_frame.pack(padx=30, pady=24)
