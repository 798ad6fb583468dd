"""The game's pictures, free of Tk: the default picture it ships with, and any picture cut to fit N×N tiles.

Pictures load through Pillow (the ``gui`` extra), so JPEG, PNG, GIF, BMP, WebP and the other
formats Pillow reads all work. The default picture, ``default-picture.png``, is drawn by
:func:`draw_default_picture` (no imaging library needed): run ``python -m solver.assignment.picture``
to draw it again.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

DEFAULT_PICTURE = Path(__file__).with_name("default-picture.png")
DEFAULT_SIDE = 360
SMALLEST, LARGEST = 240, 480
"""The side, in pixels, a picture is scaled to (then trimmed to a multiple of N)."""


class PictureError(ValueError):
    """A picture that cannot be used; the message names the file and the reason."""


def draw_default_picture(side: int = DEFAULT_SIDE) -> tuple[int, int, bytes]:
    """The default picture's pixels: ``(width, height, RGB rows)``.

    A colour wheel of hues around the centre, rings that darken outwards, and a light
    diagonal stripe, so every tile of any N×N cut looks different from its neighbours.
    """
    rows = bytearray()
    centre = (side - 1) / 2
    for y in range(side):
        for x in range(side):
            dx, dy = x - centre, y - centre
            hue = (math.atan2(dy, dx) / (2 * math.pi)) % 1.0
            radius = math.hypot(dx, dy) / centre
            ring = 0.75 + 0.25 * math.cos(radius * 5 * math.pi)
            stripe = 1.0 if (x + y) // (side // 12) % 2 else 0.85
            value = max(0.25, min(1.0, ring * stripe * (1.1 - 0.35 * radius)))
            rows += bytes(int(255 * channel) for channel in _hsv_to_rgb(hue, 0.55 + 0.4 * radius / 1.5, value))
    return side, side, bytes(rows)


def _hsv_to_rgb(hue: float, saturation: float, value: float) -> tuple[float, float, float]:
    saturation = min(1.0, saturation)
    sector = int(hue * 6) % 6
    fraction = hue * 6 - int(hue * 6)
    p, q, t = value * (1 - saturation), value * (1 - fraction * saturation), value * (1 - (1 - fraction) * saturation)
    return [(value, t, p), (q, value, p), (p, value, t), (p, q, value), (t, p, value), (value, p, q)][sector]


def png_bytes(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG of the given pixels (rows top to bottom), each row stored as its
    differences from the pixel on its left (PNG's "Sub" filter: gradients compress far better)."""
    stride = width * 3
    rows = []
    for y in range(height):
        row = rgb[y * stride:(y + 1) * stride]
        rows.append(b"\x01" + row[:3] + bytes((row[i] - row[i - 3]) & 0xFF for i in range(3, stride)))
    raw = b"".join(rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def fit_for_tiles(path: str | Path, n: int) -> Image.Image:
    """The picture at ``path`` (any format Pillow reads), turned upright, cropped to its central
    square and scaled to a side of 240 to 480 pixels that is a multiple of ``n``.

    Raises :class:`PictureError` naming the file when it cannot be read, and ``ImportError``
    when Pillow is not installed.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with Image.open(path) as opened:
            picture = ImageOps.exif_transpose(opened).convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise PictureError(f"{path}: cannot read the picture ({exc})") from None
    width, height = picture.size
    side = min(width, height)
    if side < n:
        raise PictureError(f"{path}: the picture is {width}x{height} pixels, too small for {n}x{n} tiles")
    left, top = (width - side) // 2, (height - side) // 2
    target = min(LARGEST, max(SMALLEST, side))
    target -= target % n
    return picture.crop((left, top, left + side, top + side)).resize((target, target), Image.Resampling.LANCZOS)


def cut_tiles(picture: Image.Image, n: int) -> dict[int, Image.Image]:
    """Tile ``t`` shows the part of the picture at ``t``'s goal cell (blank last)."""
    size = picture.width // n
    pieces = {}
    for tile in range(1, n * n):
        row, col = divmod(tile - 1, n)
        pieces[tile] = picture.crop((col * size, row * size, (col + 1) * size, (row + 1) * size))
    return pieces


def main(argv: list[str]) -> int:
    """``python -m solver.assignment.picture [OUT]``: draw the default picture (into the package by default)."""
    out = Path(argv[0]) if argv else DEFAULT_PICTURE
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png_bytes(*draw_default_picture()))
    print(f"Wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
