"""The board's canvas: tiles (picture pieces or coloured squares), numbers readable on any
picture, the "not solvable" band, the hint's highlight, and tiles that slide.

Tile numbers on a picture are drawn white over a dark outline (the same text offset by a pixel
in eight directions), so they read on light and dark pictures alike. The red band saying
"Puzzle not solvable" lies below the tiles, on a strip of its own, so it hides no number.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from typing import Literal

from solver.board import Board

COLORS = {"tile": "#3b6ea8", "tile_text": "white", "board": "#1f2a38", "correct": "#3f8f5a",
          "unsolvable": "#c62828", "unsolvable_tile": "#e57373", "unsolvable_band": "#8e0000",
          "outline": "black", "hint": "#ffd600"}
OUTLINE_OFFSETS = [(dx, dy) for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2) if (dx, dy) != (0, 0)
                   and abs(dx) + abs(dy) <= 3]
"""Where the number's dark outline copies go around it, in pixels."""
FRAME_MS = 15
NOT_SOLVABLE_TEXT = "Puzzle not solvable"


def tile_size(n: int) -> int:
    return max(40, min(100, 420 // n))


class BoardView:
    """Draws a board on ``canvas``; ``pieces`` maps a tile to its picture piece (empty: numbered tiles)."""

    def __init__(self, canvas: tk.Canvas, after: Callable[[int, Callable[[], None]], object]) -> None:
        self.canvas, self.after = canvas, after
        self.pieces: dict[int, tk.PhotoImage] = {}
        self.picture: tk.PhotoImage | None = None
        self.size = 100
        self.gap = 3
        self.slide_frames = 0  # frames left of the tile sliding now
        self.slide_token = 0

    def band_height(self, n: int) -> int:
        return max(22, min(40, n * self.size // 10))

    def font_size(self, n: int) -> int:
        return max(9, min(22, (n * self.size + self.gap) // 18))

    def draw(self, board: Board, hint_tile: int | None = None) -> None:
        """The whole board as it stands (stopping any slide)."""
        canvas, n = self.canvas, board.n
        self.size = self.picture.width() // n if self.picture is not None else tile_size(n)
        self.gap = 0 if self.picture is not None else 3
        self.slide_frames, self.slide_token = 0, self.slide_token + 1
        unsolvable = not board.is_solvable()
        width = n * self.size + self.gap
        canvas.config(width=width, height=width + (self.band_height(n) if unsolvable else 0),
                      bg=COLORS["unsolvable"] if unsolvable else COLORS["board"])
        canvas.delete("all")
        if board.is_goal() and self.picture is not None:
            canvas.create_image(0, 0, image=self.picture, anchor="nw", tags=("picture",))
            return
        for index, tile in enumerate(board.tiles):
            if tile:
                self._draw_tile(board, tile, *divmod(index, n), unsolvable, tile == hint_tile)
        if unsolvable:  # the sheet: the board turns red and says so, here on a strip below the tiles
            top = width
            canvas.create_rectangle(0, top, width, top + self.band_height(n), fill=COLORS["unsolvable_band"],
                                    outline="", tags=("unsolvable-band",))
            canvas.create_text(width / 2, top + self.band_height(n) / 2, text=NOT_SOLVABLE_TEXT, fill="white",
                               font=("Helvetica", self.font_size(n), "bold"), tags=("unsolvable",))

    def _draw_tile(self, board: Board, tile: int, row: int, col: int, unsolvable: bool, hinted: bool) -> None:
        canvas, size, gap = self.canvas, self.size, self.gap
        x, y = col * size + gap, row * size + gap
        tags = ("tile", f"tile{tile}")
        if tile in self.pieces:
            canvas.create_image(x, y, image=self.pieces[tile], anchor="nw", tags=tags)
            outline = COLORS["hint"] if hinted else COLORS["unsolvable"] if unsolvable else "#202020"
            canvas.create_rectangle(x, y, x + size - 1, y + size - 1, tags=tags, outline=outline,
                                    width=4 if hinted else 3 if unsolvable else 1)
            # A number helps where parts of the picture look alike; the outline keeps it readable on any picture.
            self.outlined_text(x + 6, y + 4, str(tile), max(10, size // 5), tags, anchor="nw")
            return
        if unsolvable:
            color = COLORS["unsolvable_tile"]
        else:
            color = COLORS["correct"] if tile == row * board.n + col + 1 else COLORS["tile"]
        canvas.create_rectangle(x, y, x + size - gap, y + size - gap, fill=color, tags=tags,
                                outline=COLORS["hint"] if hinted else "", width=4 if hinted else 1)
        self.outlined_text(x + (size - gap) / 2, y + (size - gap) / 2, str(tile), max(12, size // 3), tags)

    def outlined_text(self, x: float, y: float, text: str, points: int, tags: tuple[str, ...],
                      anchor: Literal["nw", "center"] = "center") -> None:
        font = ("Helvetica", points, "bold")
        for dx, dy in OUTLINE_OFFSETS:
            self.canvas.create_text(x + dx, y + dy, text=text, anchor=anchor, fill=COLORS["outline"], font=font,
                                    tags=(*tags, "number-outline"))
        self.canvas.create_text(x, y, text=text, anchor=anchor, fill=COLORS["tile_text"], font=font,
                                tags=(*tags, "number"))

    # -- sliding ---------------------------------------------------------------------
    def slide(self, before: Board, after: Board, duration_ms: int, hint_tile: int | None = None) -> None:
        """Draw ``after``, with the tile that moved starting from its cell in ``before`` and gliding home."""
        self.draw(after, hint_tile)
        if before.n != after.n or (after.is_goal() and self.picture is not None):
            return  # nothing to slide: a new size, or the whole picture shown
        tile = after.tiles[before.blank]
        if not tile:
            return
        frames = max(1, duration_ms // FRAME_MS)
        from_row, from_col = divmod(after.blank, after.n)
        to_row, to_col = divmod(before.blank, after.n)
        dx, dy = (to_col - from_col) * self.size, (to_row - from_row) * self.size
        self.canvas.move(f"tile{tile}", -dx, -dy)
        self.slide_frames = frames
        token = self.slide_token

        def frame() -> None:
            if token != self.slide_token or self.slide_frames <= 0:
                return  # redrawn meanwhile: the board already stands as it should
            step = self.slide_frames
            moved_x, moved_y = self._offset(tile, before.blank, after.n)
            self.canvas.move(f"tile{tile}", -moved_x / step, -moved_y / step)
            self.slide_frames -= 1
            if self.slide_frames:
                self.after(FRAME_MS, frame)

        self.after(FRAME_MS, frame)

    def _offset(self, tile: int, cell: int, n: int) -> tuple[float, float]:
        """How far the tile's square is from where it belongs, in ``cell``."""
        x, y = self.tile_origin(tile)
        row, col = divmod(cell, n)
        return x - (col * self.size + self.gap), y - (row * self.size + self.gap)

    def tile_origin(self, tile: int) -> tuple[float, float]:
        """Where the tile's square starts on the canvas now (tests watch it slide)."""
        first = self.canvas.coords(self.canvas.find_withtag(f"tile{tile}")[0])
        return first[0], first[1]
