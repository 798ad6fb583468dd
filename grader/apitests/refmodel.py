"""The judge's reference answers and message helpers: what a correct Board says, from the solver's core.

The judge (:mod:`grader.apitests.judge`) compares the worker's answers with these; nothing here
runs in, or is seen by, a student's process.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.board import Board

Tiles = tuple[int, ...]


class Fail(Exception):
    """A failed check: the message is what the student reads."""


def goal(n: int) -> Tiles:
    return Board.goal(n).tiles


def board(tiles: Sequence[int], n: int) -> Board:
    """The reference board of these tiles; Fail when they are not a board (the student's toString() showed
    them, e.g. a neighbour with two blanks)."""
    if sorted(tiles) != list(range(n * n)):
        raise Fail(f"{one_line(tiles, n)} is not a {n}x{n} board (its tiles are not 0..{n * n - 1} once each)")
    return Board.from_tiles(tiles, n)


def _is_board(tiles: Sequence[int], n: int) -> bool:
    return sorted(tiles) == list(range(n * n))


def ref_hamming(tiles: Tiles, n: int) -> int:
    """The hamming distance of these tiles, even when a student's toString() showed no valid board (the derived
    test asks a board for its own distances, whatever it shows)."""
    if _is_board(tiles, n):
        return board(tiles, n).hamming()
    return sum(1 for i, t in enumerate(tiles) if t and t != i + 1)


def ref_manhattan(tiles: Tiles, n: int) -> int:
    if _is_board(tiles, n):
        return board(tiles, n).manhattan()
    return sum(abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n) for i, t in enumerate(tiles) if t)


def ref_neighbors(tiles: Tiles, n: int) -> list[Tiles]:
    return [b.tiles for b in board(tiles, n).neighbors()]


def solvable(tiles: Tiles, n: int) -> bool:
    return board(tiles, n).is_solvable()


def rows(tiles: Sequence[int], n: int) -> list[list[int]]:
    return [list(tiles[r * n:(r + 1) * n]) for r in range(n)]


def show(tiles: Sequence[int], n: int) -> str:
    """A small board as the sheet prints it, for messages; big ones are named by size."""
    if n > 5:
        return f"a {n}x{n} board"
    return "\n".join(" ".join(f"{t:2d}" for t in tiles[r * n:(r + 1) * n]) for r in range(n))


def one_line(tiles: Sequence[int], n: int) -> str:
    if n > 5:
        return f"{n}x{n} board"
    return " / ".join(" ".join(str(t) for t in tiles[r * n:(r + 1) * n]) for r in range(n))


def short(value: object) -> str:
    text = repr(value)
    return text if len(text) < 120 else text[:117] + "..."


def parse_string(text: object, n: int, context: str) -> Tiles:
    """The tiles a toString() shows: a line with n, then n rows of n numbers."""
    if not isinstance(text, str):
        raise Fail(f"{context}: toString() returned {kind(text)}, not a string")
    lines = [line for line in text.strip("\n").split("\n") if line.strip()]
    if not lines or lines[0].strip() != str(n):
        first = lines[0].strip()[:40] if lines else "nothing"
        raise Fail(f"{context}: toString() must start with a line holding the size {n}, found {first!r}")
    if len(lines) != n + 1:
        raise Fail(f"{context}: toString() must show {n} rows after the size line, found {len(lines) - 1}")
    tiles: list[int] = []
    for number, line in enumerate(lines[1:], 1):
        parts = line.split()
        if len(parts) != n or not all(p.isdigit() for p in parts):
            raise Fail(f"{context}: toString() row {number} should hold {n} numbers, found {line[:80]!r}")
        tiles.extend(int(p) for p in parts)
    return tuple(tiles)


def kind(value: object) -> str:
    """The student's type name of a value the worker sent (a handle or list keeps its own)."""
    return getattr(value, "type_name", None) or type(value).__name__
