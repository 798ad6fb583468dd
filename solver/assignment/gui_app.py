"""The Tk window of ``python -m solver gui``: a start screen, then the board and its controls.

Only drawing and event wiring live here; the rules are in :mod:`solver.assignment.gui_model`
and the pictures in :mod:`solver.assignment.picture`. Solving runs in a worker thread (an
optimal search can take seconds), and the window polls for its result, so it stays
responsive; the solution is then played one move per ``delay_ms``.
"""

from __future__ import annotations

import threading
import tkinter as tk
from collections.abc import Callable
from tkinter import filedialog

from solver.api import Solver
from solver.assignment.gui_model import PuzzleModel
from solver.assignment.picture import DEFAULT_PICTURE, PictureError, cut_tiles, fit_for_tiles
from solver.board import Board, Move
from solver.errors import SearchLimitError

TITLE = "N-Puzzle"
NODE_LIMIT = 3_000_000
"""Solve gives up beyond this many expanded nodes, rather than freezing the machine."""
COLORS = {"tile": "#3b6ea8", "tile_text": "white", "board": "#1f2a38", "correct": "#3f8f5a",
          "info": "black", "solved": "#1c7c32", "error": "red", "unsolvable": "#c62828",
          "unsolvable_tile": "#e57373", "unsolvable_band": "#8e0000"}
ARROWS = {"Up": Move.UP, "Down": Move.DOWN, "Left": Move.LEFT, "Right": Move.RIGHT}
"""Arrow keys move the blank that way (the sheet's base code)."""


def tile_size(n: int) -> int:
    return max(40, min(100, 420 // n))


class PuzzleApp:
    """The whole window. ``delay_ms`` is the pause between animated moves.

    With ``board`` the window opens straight on that board (numbered tiles unless ``image``
    is given); ``autoplay`` then solves and animates it at once, and ``on_solution`` receives
    the :class:`~solver.api.Solver` when a search finishes. Without it, the start screen
    comes first and a game starts on a random solvable board, with the picture tiles of
    ``image`` (any format Pillow reads), or of the game's own picture, or numbers if ``numbers``.
    """

    def __init__(self, root: tk.Tk, size: int = 3, image: str | None = None, seed: int | None = None,
                 delay_ms: int = 350, board: Board | None = None, numbers: bool = False, autoplay: bool = False,
                 on_solution: Callable[[Solver], None] | None = None) -> None:
        self.root, self.seed, self.delay_ms, self.on_solution = root, seed, delay_ms, on_solution
        self.model = PuzzleModel(size, seed) if board is None else PuzzleModel(board.n, seed, board=board)
        self.source_picture: object | None = None  # a PIL image, or a tk.PhotoImage without Pillow
        self.picture: tk.PhotoImage | None = None
        self.pieces: dict[int, tk.PhotoImage] = {}
        self.worker: threading.Thread | None = None
        self.found: list[object] = []
        self.game_frame: tk.Frame | None = None
        root.title(TITLE)
        root.resizable(False, False)
        for key, move in ARROWS.items():
            root.bind(f"<KeyPress-{key}>", lambda event, move=move: self._on_arrow(event, move))
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
        tk.Label(frame, text="Slide the tiles into order, or let A* show the way.").grid(
            row=1, column=0, columnspan=3, pady=(0, 16))
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
        self.start_message = tk.Label(frame, text="", fg=COLORS["error"])
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
        self.source_picture = self.picture = None
        if self.tiles_var.get() == "picture" and not self._load_picture(self.image_var.get().strip() or None, n):
            return False
        self.model = PuzzleModel(n, self.seed)
        self.start_frame.pack_forget()
        self._build_game()
        return True

    def _load_picture(self, path: str | None, n: int) -> bool:
        """Load the picture (the game's own when ``path`` is None); say why not on the start screen."""
        source = path or str(DEFAULT_PICTURE)
        try:
            try:
                self.source_picture = fit_for_tiles(source, n)
            except ImportError:  # no Pillow: Tk itself reads PNG and GIF
                self.source_picture = tk.PhotoImage(master=self.root, file=source)
        except (PictureError, tk.TclError) as exc:
            self.source_picture = None
            message = str(exc) if isinstance(exc, PictureError) else f"{source}: cannot read the picture ({exc})"
            if not isinstance(exc, PictureError) and not source.lower().endswith((".png", ".gif")):
                message += "; JPEG and other formats need Pillow: pip install 'npuzzle-grader[gui]'"
            self.start_message.config(text=message)
            return False
        self._fit_picture(n)
        return True

    def _fit_picture(self, n: int) -> None:
        """The picture and its N²-1 pieces for an N×N board (tile ``t`` shows ``t``'s goal cell)."""
        self.pieces = {}
        if self.source_picture is None:
            self.picture = None
            return
        if isinstance(self.source_picture, tk.PhotoImage):
            self.picture = fit_picture(self.source_picture, n)
            size = self.picture.width() // n
            for tile in range(1, n * n):
                row, col = divmod(tile - 1, n)
                piece = tk.PhotoImage(master=self.root, width=size, height=size)
                piece.tk.call(piece, "copy", self.picture, "-from", col * size, row * size,
                              (col + 1) * size, (row + 1) * size, "-to", 0, 0)
                self.pieces[tile] = piece
            return
        from PIL import ImageTk

        picture = self.source_picture
        side = picture.width - picture.width % n  # type: ignore[attr-defined]
        if side != picture.width:  # type: ignore[attr-defined]
            picture = picture.resize((side, side))  # type: ignore[attr-defined]
        self.picture = ImageTk.PhotoImage(picture, master=self.root)
        self.pieces = {tile: ImageTk.PhotoImage(piece, master=self.root) for tile, piece in cut_tiles(picture, n).items()}

    # -- game screen ---------------------------------------------------------------
    def _build_game(self) -> None:
        if self.game_frame is not None:
            self.game_frame.destroy()
        frame = self.game_frame = tk.Frame(self.root)
        self.canvas = tk.Canvas(frame, highlightthickness=0, bg=COLORS["board"])
        self.canvas.grid(row=0, column=0, columnspan=4, pady=(0, 8))
        self.canvas.bind("<Button-1>", self._on_click)
        self.status = tk.Label(frame, text="", font=("Helvetica", 13), width=40)
        self.status.grid(row=1, column=0, columnspan=4, pady=(0, 8))
        self.shuffle_button = tk.Button(frame, text="Shuffle", width=9, command=self.shuffle)
        self.solve_button = tk.Button(frame, text="Solve", width=9, command=self.solve)
        self.back_button = tk.Button(frame, text="New game", width=9, command=self.back)
        for column, button in enumerate((self.shuffle_button, self.solve_button, self.back_button)):
            button.grid(row=2, column=column, padx=3)
        custom = tk.Frame(frame)
        custom.grid(row=3, column=0, columnspan=4, pady=(10, 0))
        tk.Label(custom, text="Your board:").pack(side="left")
        self.custom_var = tk.StringVar()
        self.custom_entry = tk.Entry(custom, textvariable=self.custom_var, width=26)
        self.custom_entry.pack(side="left", padx=4)
        self.custom_entry.bind("<Return>", lambda _: self.set_custom())
        self.custom_button = tk.Button(custom, text="Set", command=self.set_custom)
        self.custom_button.pack(side="left")
        frame.pack(padx=16, pady=16)
        self._fit_picture(self.model.n)
        self.redraw()
        self.canvas.focus_set()

    def _size(self) -> int:
        return self.picture.width() // self.model.n if self.picture is not None else tile_size(self.model.n)

    def redraw(self) -> None:
        model, canvas = self.model, self.canvas
        n, size = model.n, self._size()
        gap = 0 if self.picture is not None else 3
        unsolvable = not model.solvable
        canvas.config(width=n * size + gap, height=n * size + gap,
                      bg=COLORS["unsolvable"] if unsolvable else COLORS["board"])
        canvas.delete("all")
        if model.board.is_goal() and self.picture is not None:
            canvas.create_image(0, 0, image=self.picture, anchor="nw", tags=("picture",))
        else:
            for index, tile in enumerate(model.board.tiles):
                if tile:
                    self._draw_tile(tile, *divmod(index, n), size, gap, unsolvable)
        if unsolvable:  # the sheet: the board itself turns red and says so, on a band between two rows
            width = n * size + gap
            font = max(9, min(26, width // 16))
            middle = (n // 2) * size + gap / 2
            canvas.create_rectangle(0, middle - font, width, middle + font, fill=COLORS["unsolvable_band"],
                                    outline="", tags=("unsolvable-band",))
            canvas.create_text(width / 2, middle, text="Puzzle not solvable", fill="white",
                               font=("Helvetica", font, "bold"), tags=("unsolvable",))
        self.status.config(text=model.message, fg=COLORS.get(model.kind, COLORS["info"]))
        busy = model.animating or self.worker is not None
        for widget in (self.shuffle_button, self.solve_button, self.back_button, self.custom_button):
            widget.config(state="disabled" if busy else "normal")

    def _draw_tile(self, tile: int, row: int, col: int, size: int, gap: int, unsolvable: bool) -> None:
        canvas = self.canvas
        x, y = col * size + gap, row * size + gap
        tags = ("tile", f"tile{tile}")
        if tile in self.pieces:
            canvas.create_image(x, y, image=self.pieces[tile], anchor="nw", tags=tags)
            canvas.create_rectangle(x, y, x + size - 1, y + size - 1, tags=tags,
                                    outline=COLORS["unsolvable"] if unsolvable else "#202020",
                                    width=3 if unsolvable else 1)
            # A small number helps when parts of the picture look alike.
            canvas.create_text(x + 5, y + 3, text=str(tile), anchor="nw", fill="white",
                               font=("Helvetica", max(8, size // 7), "bold"), tags=tags)
            return
        if unsolvable:
            color = COLORS["unsolvable_tile"]
        else:
            color = COLORS["correct"] if tile == row * self.model.n + col + 1 else COLORS["tile"]
        canvas.create_rectangle(x, y, x + size - gap, y + size - gap, fill=color, outline="", tags=tags)
        canvas.create_text(x + (size - gap) / 2, y + (size - gap) / 2, text=str(tile), fill=COLORS["tile_text"],
                           font=("Helvetica", max(12, size // 3), "bold"), tags=tags)

    def cell_at(self, x: int, y: int) -> tuple[int, int]:
        """The (row, column) under canvas point (x, y)."""
        size = self._size()
        return y // size, x // size

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        """Canvas coordinates of a cell's centre (for tests and accessibility tools)."""
        size = self._size()
        return col * size + size // 2, row * size + size // 2

    # -- actions -------------------------------------------------------------------
    def _on_click(self, event: tk.Event) -> None:
        self.canvas.focus_set()
        if self.worker is None and self.model.click(*self.cell_at(event.x, event.y)) is not None:
            self.redraw()

    def _on_arrow(self, event: tk.Event, move: Move) -> str | None:
        if self.game_frame is None or isinstance(event.widget, (tk.Entry, tk.Spinbox)):
            return None  # the arrows edit the text being typed
        if self.worker is None and self.model.move_blank(move) is not None:
            self.redraw()
        return "break"

    def shuffle(self) -> None:
        self.model.shuffle()
        self.redraw()

    def set_custom(self) -> None:
        old_n = self.model.n
        if self.model.set_custom(self.custom_var.get()) and self.model.n != old_n:
            self._fit_picture(self.model.n)  # the board's size changed: cut the picture again
        self.redraw()

    def back(self) -> None:
        if self.game_frame is not None:
            self.game_frame.destroy()
            self.game_frame = None
        self.start_message.config(text="")
        self.start_frame.pack(padx=30, pady=24)

    def solve(self) -> None:
        """Search for an optimal solution in a worker thread, then animate it."""
        if self.worker is not None or not self.model.can_solve():
            self.redraw()
            return
        board = self.model.board
        self.found = []

        def work() -> None:
            try:
                self.found.append(Solver(board, node_limit=NODE_LIMIT))
            except SearchLimitError as exc:
                self.found.append(exc)

        self.worker = threading.Thread(target=work, name="npuzzle-solve", daemon=True)
        self.model.message, self.model.kind = "Solving…", "info"
        self.worker.start()
        self.redraw()
        self.root.after(30, self._poll)

    def _poll(self) -> None:
        if self.worker is None or self.game_frame is None:
            return
        if self.worker.is_alive():
            self.root.after(30, self._poll)
            return
        self.worker = None
        outcome = self.found[0]
        if isinstance(outcome, SearchLimitError):
            self.model.search_failed(f"Too hard to solve here: more than {NODE_LIMIT:,} positions searched.")
        else:
            assert isinstance(outcome, Solver)
            if self.on_solution is not None:
                self.on_solution(outcome)
            self.model.start_animation(outcome.solution())
            self.root.after(self.delay_ms, self._animate)
        self.redraw()

    def _animate(self) -> None:
        if self.game_frame is None or self.model.advance() is None:
            return
        self.redraw()
        if self.model.animating:
            self.root.after(self.delay_ms, self._animate)


def fit_picture(picture: tk.PhotoImage, n: int, largest: int = 480) -> tk.PhotoImage:
    """Without Pillow: a square crop of a Tk picture, scaled by whole factors to at most ``largest``
    pixels and a multiple of ``n`` wide, so it cuts into N×N equal tiles."""
    side = min(picture.width(), picture.height())
    if side < n:
        raise tk.TclError(f"the picture is {picture.width()}x{picture.height()} pixels, too small for {n}x{n} tiles")
    factor = max(1, -(-side // largest))
    zoom = max(1, 240 // max(1, side // factor))
    scaled = side // factor * zoom
    scaled -= scaled % n
    out = tk.PhotoImage(master=picture.tk, width=scaled, height=scaled)
    source = picture.subsample(factor) if factor > 1 else picture
    if zoom > 1:
        source = source.zoom(zoom)
    left = (source.width() - scaled) // 2
    top = (source.height() - scaled) // 2
    out.tk.call(out, "copy", source, "-from", left, top, left + scaled, top + scaled, "-to", 0, 0)
    return out
