"""The picture of a game as Tk images: loaded (through Pillow, or Tk alone for PNG and GIF),
fitted to N×N tiles and cut into its N²-1 pieces. The Tk-free part is :mod:`solver.assignment.picture`.
"""

from __future__ import annotations

import tkinter as tk
from typing import Any

from solver.assignment.picture import (
    DEFAULT_PICTURE,
    PictureError,
    cut_tiles,
    fit_for_tiles,
)

PILLOW_HINT = "; JPEG and other formats need Pillow: pip install 'npuzzle-grader[gui]'"


def load_source(root: tk.Misc, path: str | None, n: int) -> object:
    """The picture at ``path`` (the game's own when None): a PIL image, or a Tk one without Pillow.

    Raises :class:`PictureError` naming the file and the reason.
    """
    source = path or str(DEFAULT_PICTURE)
    try:
        try:
            return fit_for_tiles(source, n)
        except ImportError:  # no Pillow: Tk itself reads PNG and GIF
            return tk.PhotoImage(master=root, file=source)
    except tk.TclError as exc:
        message = f"{source}: cannot read the picture ({exc})"
        if not source.lower().endswith((".png", ".gif")):
            message += PILLOW_HINT
        raise PictureError(message) from None


def cut(root: tk.Misc, source: Any, n: int) -> tuple[Any, dict[int, Any]]:
    """The whole picture and its pieces for an N×N board (tile ``t`` shows ``t``'s goal cell), as Tk
    images (Tk's own, or Pillow's ImageTk ones)."""
    if isinstance(source, tk.PhotoImage):
        picture = fit_picture(source, n)
        size = picture.width() // n
        pieces: dict[int, Any] = {}
        for tile in range(1, n * n):
            row, col = divmod(tile - 1, n)
            piece = tk.PhotoImage(master=root, width=size, height=size)
            piece.tk.call(piece, "copy", picture, "-from", col * size, row * size,
                          (col + 1) * size, (row + 1) * size, "-to", 0, 0)
            pieces[tile] = piece
        return picture, pieces
    from PIL import ImageTk

    image = source
    side = image.width - image.width % n
    if side != image.width:
        image = image.resize((side, side))
    return (ImageTk.PhotoImage(image, master=root),
            {tile: ImageTk.PhotoImage(piece, master=root) for tile, piece in cut_tiles(image, n).items()})


def fit_picture(picture: tk.PhotoImage, n: int, largest: int = 480) -> tk.PhotoImage:
    """Without Pillow: a square crop of a Tk picture, scaled by whole factors to at most ``largest``
    pixels and a multiple of ``n`` wide, so it cuts into N×N equal tiles."""
    side = min(picture.width(), picture.height())
    if side < n:
        raise PictureError(f"the picture is {picture.width()}x{picture.height()} pixels, too small for {n}x{n} tiles")
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
