"""The one board model: an immutable N×N sliding-tile board, for any N >= 2.

Tiles are stored row-major in a tuple; ``0`` is the blank. The goal is
``1 2 … N²-1`` with the blank in the bottom-right corner.

Move convention — a move is named by the direction the *blank* travels::

      1  2  3                 1  0  3
      4  0  6   -- UP -->     4  2  6     the blank goes up; tile 2 slides down
      7  5  8                 7  5  8

    UP     the blank swaps with the tile above it     (that tile slides down)
    DOWN   the blank swaps with the tile below it     (that tile slides up)
    LEFT   the blank swaps with the tile to its left  (that tile slides right)
    RIGHT  the blank swaps with the tile to its right (that tile slides left)

Example: from ``1 2 3 / 4 0 6 / 7 5 8`` the move DOWN gives ``1 2 3 / 4 5 6 / 7 0 8``.
Every other module (search, grader, shell, GUI) uses this convention and the
:meth:`Board.successors` order UP, DOWN, LEFT, RIGHT, which makes searches
deterministic.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


class Move(enum.Enum):
    """Direction the blank travels; the value is its (row, column) step."""

    UP = (-1, 0)
    DOWN = (1, 0)
    LEFT = (0, -1)
    RIGHT = (0, 1)

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def opposite(self) -> Move:
        return _OPPOSITE[self]


_OPPOSITE = {Move.UP: Move.DOWN, Move.DOWN: Move.UP, Move.LEFT: Move.RIGHT, Move.RIGHT: Move.LEFT}


@functools.lru_cache(maxsize=None)
def _neighbor_table(n: int) -> tuple[tuple[tuple[Move, int], ...], ...]:
    """For each blank position, the legal moves and the position the blank goes to."""
    table = []
    for pos in range(n * n):
        row, col = divmod(pos, n)
        legal = []
        for move in Move:
            r, c = row + move.value[0], col + move.value[1]
            if 0 <= r < n and 0 <= c < n:
                legal.append((move, r * n + c))
        table.append(tuple(legal))
    return tuple(table)


@functools.lru_cache(maxsize=None)
def _manhattan_table(n: int) -> tuple[tuple[int, ...], ...]:
    """``table[tile][pos]``: grid distance from ``pos`` to the tile's goal cell."""
    table = [tuple(0 for _ in range(n * n))]
    for tile in range(1, n * n):
        goal_row, goal_col = divmod(tile - 1, n)
        table.append(tuple(abs(p // n - goal_row) + abs(p % n - goal_col) for p in range(n * n)))
    return tuple(table)


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable N×N board. Build one with :meth:`from_tiles` (validated) or :meth:`goal`.

    >>> b = Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])
    >>> b.n, b.blank, b.manhattan(), b.is_goal()
    (3, 4, 2, False)
    """

    tiles: tuple[int, ...]
    n: int

    # -- construction -----------------------------------------------------
    @classmethod
    def from_tiles(cls, tiles: Sequence[int], n: int | None = None) -> Board:
        """Validate and build a board; raises ``ValueError`` naming the problem."""
        tiles = tuple(int(t) for t in tiles)
        if n is None:
            n = int(round(len(tiles) ** 0.5))
        if n < 2:
            raise ValueError(f"board size must be at least 2, found {n}")
        if len(tiles) != n * n:
            raise ValueError(f"a {n}x{n} board needs {n * n} tiles, found {len(tiles)}")
        if sorted(tiles) != list(range(n * n)):
            seen: set[int] = set()
            for t in tiles:
                if not 0 <= t < n * n:
                    raise ValueError(f"tile {t} is out of range 0..{n * n - 1}")
                if t in seen:
                    raise ValueError(f"tile {t} appears twice")
                seen.add(t)
        return cls(tiles, n)

    @classmethod
    def goal(cls, n: int, blank_first: bool = False) -> Board:
        """The goal board: blank last (the default) or, for some courses, blank first."""
        if blank_first:
            return cls(tuple(range(n * n)), n)
        return cls(tuple(range(1, n * n)) + (0,), n)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]]) -> Board:
        return cls.from_tiles([t for row in rows for t in row], len(rows))

    # -- basic facts ------------------------------------------------------
    @property
    def blank(self) -> int:
        """Row-major index of the blank."""
        return self.tiles.index(0)

    def rows(self) -> list[tuple[int, ...]]:
        n = self.n
        return [self.tiles[r * n:(r + 1) * n] for r in range(n)]

    def is_goal(self) -> bool:
        return self.tiles == Board.goal(self.n).tiles

    def __str__(self) -> str:
        """The board exactly as the output format prints it: N, then N rows."""
        return "\n".join([str(self.n)] + [" ".join(map(str, row)) for row in self.rows()])

    # -- moves ------------------------------------------------------------
    def successors(self) -> list[tuple[Move, Board]]:
        """Every board one move away, with the move that produced it, in UP, DOWN, LEFT, RIGHT order.

        >>> [m.label for m, _ in Board.goal(3).successors()]
        ['up', 'left']
        """
        blank = self.blank
        out = []
        for move, target in _neighbor_table(self.n)[blank]:
            tiles = list(self.tiles)
            tiles[blank], tiles[target] = tiles[target], 0
            out.append((move, Board(tuple(tiles), self.n)))
        return out

    def neighbors(self) -> list[Board]:
        """The boards one move away (Princeton's API), in the order of :meth:`successors`.

        >>> [b.blank for b in Board.goal(3).neighbors()]
        [5, 7]
        """
        return [board for _, board in self.successors()]

    def apply(self, move: Move) -> Board:
        """The board after ``move``; raises ``ValueError`` if the blank would leave the board."""
        for legal, board in self.successors():
            if legal is move:
                return board
        raise ValueError(f"cannot move the blank {move.label} from row {self.blank // self.n + 1}, "
                         f"column {self.blank % self.n + 1}")

    def move_to(self, other: Board) -> Move | None:
        """The single move that turns this board into ``other``, or ``None`` if no move does."""
        if other.n != self.n:
            return None
        for move, board in self.successors():
            if board.tiles == other.tiles:
                return move
        return None

    # -- heuristics (all admissible, measured against the standard goal) --
    def hamming(self) -> int:
        """Tiles out of place, the blank not counted."""
        return sum(1 for i, t in enumerate(self.tiles) if t and t != i + 1)

    def manhattan(self) -> int:
        """Sum of each tile's grid distance to its goal cell."""
        table = _manhattan_table(self.n)
        return sum(table[t][i] for i, t in enumerate(self.tiles))

    def linear_conflict(self) -> int:
        """Manhattan plus two moves per tile that must leave its goal row or column to let another pass.

        For each row, the tiles that belong in it form a sequence; the minimum number
        of them that must step out of the row is ``len - longest increasing subsequence``
        of their goal columns (and likewise for columns). Each costs two extra moves.
        """
        n = self.n
        extra = 0
        for line in range(n):
            row_goals = [(t - 1) % n for t in self.tiles[line * n:(line + 1) * n] if t and (t - 1) // n == line]
            col_goals = [(t - 1) // n for t in self.tiles[line::n] if t and (t - 1) % n == line]
            extra += 2 * (len(row_goals) - _lis_length(row_goals))
            extra += 2 * (len(col_goals) - _lis_length(col_goals))
        return self.manhattan() + extra

    # -- solvability and twin ---------------------------------------------
    def inversions(self) -> int:
        """Pairs of non-blank tiles that appear in the wrong order, read row-major."""
        seq = [t for t in self.tiles if t]
        return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])

    def is_solvable(self) -> bool:
        """Inversion / blank-row parity rule.

        Each move changes the inversion count by 0 (sideways) or by N-1 (vertical), and
        a vertical move changes the blank's row by one. Odd N: the inversion parity is
        invariant, and the goal has none, so the count must be even. Even N: the parity
        of ``inversions + blank row`` is invariant; the goal has 0 inversions with the
        blank in row N-1 (odd), so that sum must be odd.
        """
        inversions = self.inversions()
        if self.n % 2:
            return inversions % 2 == 0
        return (inversions + self.blank // self.n) % 2 == 1

    def twin(self) -> Board:
        """The board with the first two non-blank tiles of the first row holding two swapped.

        Exactly one of a board and its twin is solvable (Princeton's test).
        """
        n = self.n
        for r in range(n):
            cols = [r * n + c for c in range(n) if self.tiles[r * n + c]]
            if len(cols) >= 2:
                tiles = list(self.tiles)
                i, j = cols[0], cols[1]
                tiles[i], tiles[j] = tiles[j], tiles[i]
                return Board(tuple(tiles), n)
        raise AssertionError("unreachable: every board with N >= 2 has a row with two tiles")

    # -- goal conventions --------------------------------------------------
    def standardized(self, blank_first: bool) -> Board:
        """Map a board whose goal puts the blank first onto the standard convention.

        Turning the board 180° and relabelling each tile ``t`` as ``N²-t`` maps the
        blank-first goal onto the standard one and keeps every move a move, so
        distances and solvability carry over unchanged.
        """
        if not blank_first:
            return self
        size = self.n * self.n
        return Board(tuple(size - t if t else 0 for t in reversed(self.tiles)), self.n)

    # -- CMPE 160 names: thin aliases, so students' code and tests read as the sheet does --
    def h(self) -> int:
        """CMPE 160's heuristic: the Manhattan distance (:meth:`manhattan`).

        >>> Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8]).h()
        2
        """
        return self.manhattan()

    def is_completed(self) -> bool:
        """CMPE 160's goal test (:meth:`is_goal`).

        >>> Board.goal(3).is_completed(), Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 0, 8]).is_completed()
        (True, False)
        """
        return self.is_goal()

    def get_adjacents(self) -> list[Board]:
        """CMPE 160's neighbours: the boards one move away (:meth:`neighbors`).

        >>> [b.blank for b in Board.goal(3).get_adjacents()]
        [5, 7]
        """
        return self.neighbors()


def _lis_length(seq: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence (patience sorting)."""
    import bisect

    piles: list[int] = []
    for x in seq:
        k = bisect.bisect_left(piles, x)
        if k == len(piles):
            piles.append(x)
        else:
            piles[k] = x
    return len(piles)


def path_moves(path: Sequence[Board]) -> Iterator[Move | None]:
    """The move between each consecutive pair of a path (``None`` where no single move does it)."""
    for before, after in zip(path, path[1:]):
        yield before.move_to(after)
