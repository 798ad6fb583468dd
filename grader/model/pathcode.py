"""A printed path as results.json (format 2) and the journal keep it: the first board, then one letter per step.

:data:`grader.model.results.Path` reads and writes it (either form); nothing else needs to know the code.

A case result keeps every board the program printed, for replays; as lists of numbers that was half of
results.json. Most steps move the blank to a neighbouring square and change nothing else, so a step is
stored as the letter of the blank's move (``U D L R``, as :class:`solver.board.Move` names them), and
any other step (a jump, a changed tile, a board of another size, a repeated board) as ``*`` with the
board it printed, whole, under ``jumps``::

    {"first": [1, 2, 0, 3], "steps": "R*", "jumps": {"2": [0, 2, 3, 1]}}

The code is exact: :func:`decode` gives back the very boards :func:`encode` was given, legal or not,
so the judging of a path never depends on it (a letter records what the board was, not that the step
was legal: a blank moved onto a board of duplicate tiles is still a letter). A path whose first board
has no blank or is not N×N is kept as plain lists, as format 1 kept every path.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

Board = tuple[int, ...]


def _shape(board: Sequence[int]) -> tuple[int, int, bool] | None:
    """``(n, blank, single)`` for a board the letters can describe: N×N (N ≥ 2) with a 0 in it (the first 0
    is the blank; ``single`` when it is the only one, so the blank's square follows its moves)."""
    n = math.isqrt(len(board))
    if n < 2 or n * n != len(board) or 0 not in board:
        return None
    return n, board.index(0), board.count(0) == 1


def _target(letter: str, blank: int, n: int) -> int | None:
    """Where the blank at ``blank`` goes by ``letter`` on an N×N board, or ``None`` off the board."""
    row, column = divmod(blank, n)
    if letter == "U":
        return blank - n if row > 0 else None
    if letter == "D":
        return blank + n if row < n - 1 else None
    if letter == "L":
        return blank - 1 if column > 0 else None
    if letter == "R":
        return blank + 1 if column < n - 1 else None
    return None


def _moved(board: Board, blank: int, target: int) -> Board:
    tiles = list(board)
    tiles[blank], tiles[target] = tiles[target], tiles[blank]
    return tuple(tiles)


def _after(shape: tuple[int, int, bool], board: Board, target: int) -> tuple[int, int, bool]:
    """The shape of ``board`` once its blank went to ``target``."""
    n, _, single = shape
    return (n, target, True) if single else (n, board.index(0), False)


def encode(path: Sequence[Sequence[int]] | None) -> Mapping[str, Any] | list[list[int]] | None:
    """``path`` as results.json stores it (``None`` stays ``None``; a :class:`Coded` path gives its code back)."""
    if path is None:
        return None
    if isinstance(path, Coded):
        return path.code
    shape = _shape(path[0]) if path else None
    if shape is None:
        return [list(board) for board in path]
    steps, jumps = [], {}
    previous = tuple(path[0])
    for index in range(1, len(path)):
        board = tuple(path[index])
        letter = None
        if shape is not None and len(board) == len(previous):
            n, blank, _ = shape
            for candidate in "UDLR":
                target = _target(candidate, blank, n)
                if target is not None and board[target] == 0 and _moved(previous, blank, target) == board:
                    letter, shape = candidate, _after(shape, board, target)
                    break
        if letter is None:
            letter, shape = "*", _shape(board)
            jumps[str(index)] = list(board)
        steps.append(letter)
        previous = board
    coded: dict[str, Any] = {"first": list(path[0]), "steps": "".join(steps)}
    if jumps:
        coded["jumps"] = jumps
    return coded


def decode(stored: Mapping[str, Any] | Sequence[Sequence[int]] | None) -> tuple[Board, ...] | None:
    """The boards of a stored path (either form); ``ValueError`` names what does not add up."""
    if stored is None:
        return None
    if not isinstance(stored, Mapping):
        return tuple(tuple(board) for board in stored)
    jumps = stored.get("jumps") or {}
    previous = tuple(stored["first"])
    shape = _shape(previous)
    boards = [previous]
    stars = 0
    for index, letter in enumerate(stored["steps"], start=1):
        if letter == "*":
            stars += 1
            if str(index) not in jumps:
                raise ValueError(f"step {index} is '*' but jumps has no board {index}")
            board = tuple(jumps[str(index)])
            shape = _shape(board)
        else:
            target = _target(letter, shape[1], shape[0]) if shape is not None else None
            if shape is None or target is None:
                raise ValueError(f"step {index} moves the blank {letter!r} off the board or from no blank")
            board = _moved(previous, shape[1], target)
            shape = _after(shape, board, target)
        boards.append(board)
        previous = board
    if stars != len(jumps):
        extra = sorted(set(jumps) - {str(i) for i, letter in enumerate(stored["steps"], start=1) if letter == "*"})
        raise ValueError(f"jumps has board {extra[0]}, but step {extra[0]} is not '*'")
    return tuple(boards)


class Coded(Sequence[Board]):
    """A stored path whose boards are decoded when first looked at: a result read back from the journal to be
    written again (results.json, a feedback file) never decodes its path. Equal to the tuple of its boards."""

    __slots__ = ("code", "decoded")

    def __init__(self, code: Mapping[str, Any]) -> None:
        self.code = code
        self.decoded: tuple[Board, ...] | None = None
        """The boards, once something has looked at them."""

    def boards(self) -> tuple[Board, ...]:
        if self.decoded is None:
            self.decoded = decode(self.code) or ()
        return self.decoded

    def __len__(self) -> int:
        return len(self.code["steps"]) + 1

    def __getitem__(self, index: Any) -> Any:
        return self.boards()[index]

    def __iter__(self) -> Iterator[Board]:
        return iter(self.boards())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self.boards() == tuple(other)

    def __hash__(self) -> int:
        return hash(self.boards())

    def __repr__(self) -> str:
        return f"Coded({self.code!r})"
