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
from itertools import pairwise

from solver.tiles import (
    SMALL_N,
    check_permutation,
    count_inversions,
    grid_tiles,
    lis_length,
    manhattan_direct,
    manhattan_table,
    permutation_is_odd,
)


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


@functools.cache
def _neighbor_table(n: int) -> tuple[tuple[tuple[Move, int], ...], ...]:
    """For each blank position, the legal moves and the position the blank goes to.

    Only for ``n <= SMALL_N`` (and the exact tables' 2×2 and 3×3): it has N² entries.
    """
    if n > SMALL_N:
        raise ValueError(f"the neighbour table is kept for N <= {SMALL_N} only, not {n}")
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


def _moves_from(blank: int, n: int) -> Sequence[tuple[Move, int]]:
    """The legal moves of a blank at ``blank`` and where it goes, in UP, DOWN, LEFT, RIGHT order."""
    if n <= SMALL_N:
        return _neighbor_table(n)[blank]
    row, col = divmod(blank, n)
    return [(move, target) for move, target, legal in (
        (Move.UP, blank - n, row > 0), (Move.DOWN, blank + n, row < n - 1),
        (Move.LEFT, blank - 1, col > 0), (Move.RIGHT, blank + 1, col < n - 1)) if legal]


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Board:
    """An immutable N×N board, for any N >= 2.

    Two ways to build one:

    - ``Board(rows)``: the Princeton sheet's ``Board(int[][] tiles)``, from a 2-D list
      (``rows[r][c]`` is the tile at row ``r``, column ``c``), checked: ``None`` or a
      non-list raises ``TypeError``, ragged rows and tiles that are not a permutation of
      ``0..N²-1`` raise ``ValueError``, each with a message naming the row and column;
    - ``Board(tiles, n)``: the row-major tuple and the size, unchecked (the searches build
      millions of boards); :meth:`from_tiles` is the checked form of it.

    >>> b = Board([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    >>> b.n, b.blank, b.manhattan(), b.is_goal(), b == Board((1, 2, 3, 4, 0, 6, 7, 5, 8), 3)
    (3, 4, 2, False, True)

    Every method runs in time proportional to N² (``inversions`` in N² log N). Beyond
    N = :data:`SMALL_N` nothing is built or cached per board size, so a 127×127 board
    costs what its 16,129 tiles cost.
    """

    tiles: tuple[int, ...]
    n: int

    def __init__(self, tiles: Sequence[int] | Sequence[Sequence[int]], n: int | None = None) -> None:
        if n is None:
            tiles, n = grid_tiles(tiles)
        elif type(tiles) is not tuple:
            tiles = tuple(tiles)  # type: ignore[assignment]  # with n given, the tiles are flat ints (documented)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "n", n)

    def __eq__(self, other: object) -> bool:
        # Equal tiles are the same board whatever the class (a CMPE 160 Puzzle equals its Board).
        if isinstance(other, Board):
            return self.tiles == other.tiles
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.tiles)

    # -- construction -----------------------------------------------------
    @classmethod
    def from_tiles(cls, tiles: Sequence[int], n: int | None = None) -> Board:
        """Validate and build a board from row-major tiles; raises ``ValueError`` naming the problem."""
        tiles = tuple(int(t) for t in tiles)
        if n is None:
            n = round(len(tiles) ** 0.5)
        if n < 2:
            raise ValueError(f"board size must be at least 2, found {n}")
        if len(tiles) != n * n:
            raise ValueError(f"a {n}x{n} board needs {n * n} tiles, found {len(tiles)}")
        check_permutation(tiles, n)
        return cls(tiles, n)

    @classmethod
    def goal(cls, n: int, blank_first: bool = False) -> Board:
        """The goal board: blank last (the default) or, for some courses, blank first."""
        if blank_first:
            return cls(tuple(range(n * n)), n)
        return cls(tuple(range(1, n * n)) + (0,), n)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]]) -> Board:
        """The checked board of a 2-D list (what ``Board(rows)`` does)."""
        return cls(rows)

    # -- basic facts ------------------------------------------------------
    @property
    def blank(self) -> int:
        """Row-major index of the blank."""
        return self.tiles.index(0)

    def dimension(self) -> int:
        """The board size N (Princeton's ``dimension()``).

        >>> Board([[1, 2], [3, 0]]).dimension()
        2
        """
        return self.n

    def rows(self) -> list[tuple[int, ...]]:
        n = self.n
        return [self.tiles[r * n:(r + 1) * n] for r in range(n)]

    def is_goal(self) -> bool:
        """Whether this is the goal board (1 2 … N²-1, the blank last)."""
        tiles = self.tiles
        return tiles[-1] == 0 and all(tile == index for index, tile in enumerate(tiles[:-1], start=1))

    def __str__(self) -> str:
        """Princeton's ``toString()``: N, then each row with every tile as ``%2d `` and a newline.

        The solution file prints boards differently (:func:`solver.formats.format_board`).

        >>> str(Board([[8, 1, 3], [4, 0, 2], [7, 6, 5]]))
        '3\\n 8  1  3 \\n 4  0  2 \\n 7  6  5 \\n'
        """
        return f"{self.n}\n" + "".join("".join(f"{tile:2d} " for tile in row) + "\n" for row in self.rows())

    # -- moves ------------------------------------------------------------
    def successors(self) -> list[tuple[Move, Board]]:
        """Every board one move away, with the move that produced it, in UP, DOWN, LEFT, RIGHT order.

        >>> [m.label for m, _ in Board.goal(3).successors()]
        ['up', 'left']
        """
        tiles, n = self.tiles, self.n
        blank = tiles.index(0)
        make = type(self)
        out = []
        for move, target in _moves_from(blank, n):
            child = list(tiles)
            child[blank], child[target] = child[target], 0
            out.append((move, make(tuple(child), n)))
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
        return sum(1 for i, t in enumerate(self.tiles, start=1) if t and t != i)

    def manhattan(self) -> int:
        """Sum of each tile's grid distance to its goal cell (the blank not counted)."""
        n, tiles = self.n, self.tiles
        if n > SMALL_N:
            return manhattan_direct(tiles, n)
        table = manhattan_table(n)
        total = 0
        for index, tile in enumerate(tiles):
            total += table[tile][index]
        return total

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
            extra += 2 * (len(row_goals) - lis_length(row_goals))
            extra += 2 * (len(col_goals) - lis_length(col_goals))
        return self.manhattan() + extra

    # -- solvability and twin ---------------------------------------------
    def inversions(self) -> int:
        """Pairs of non-blank tiles that appear in the wrong order, read row-major (a Fenwick tree:
        N² log N, so a 127×127 board takes milliseconds, not the hours of the pairwise count).

        >>> Board.from_tiles([1, 2, 3, 4, 5, 6, 8, 7, 0]).inversions(), Board.goal(4).inversions()
        (1, 0)
        """
        return count_inversions(self.tiles)

    def is_solvable(self) -> bool:
        """Inversion / blank-row parity rule.

        Each move changes the inversion count by 0 (sideways) or by N-1 (vertical), and
        a vertical move changes the blank's row by one. Odd N: the inversion parity is
        invariant, and the goal has none, so the count must be even. Even N: the parity
        of ``inversions + blank row`` is invariant; the goal has 0 inversions with the
        blank in row N-1 (odd), so that sum must be odd. The parity of the inversions is
        the parity of the permutation of the non-blank tiles, found from its cycles in
        time proportional to N².
        """
        odd = permutation_is_odd([t for t in self.tiles if t])
        if self.n % 2:
            return not odd
        return (odd + self.blank // self.n) % 2 == 1

    def twin(self) -> Board:
        """The board with two adjacent non-blank tiles of one row swapped (Princeton's ``twin()``):
        the first two tiles of the first row, or of the second row when the blank is in the first.

        Exactly one of a board and its twin is solvable (Princeton's test).

        >>> Board([[0, 1], [2, 3]]).twin().tiles, Board([[1, 2], [0, 3]]).twin().tiles
        ((0, 1, 3, 2), (2, 1, 0, 3))
        """
        n = self.n
        first = 0 if self.blank >= n else n
        tiles = list(self.tiles)
        tiles[first], tiles[first + 1] = tiles[first + 1], tiles[first]
        return type(self)(tuple(tiles), n)

    # -- goal conventions --------------------------------------------------
    def standardized(self, blank_first: bool) -> Board:
        """Map a board whose goal puts the blank first onto the standard convention.

        Turning the board 180° and relabelling each tile ``t`` as ``N²-t`` maps the
        blank-first goal onto the standard one and keeps every move a move, so
        distances and solvability carry over unchanged. The map is its own inverse.
        """
        if not blank_first:
            return self
        size = self.n * self.n
        return type(self)(tuple(size - t if t else 0 for t in reversed(self.tiles)), self.n)

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


def path_moves(path: Sequence[Board]) -> Iterator[Move | None]:
    """The move between each consecutive pair of a path (``None`` where no single move does it)."""
    for before, after in pairwise(path):
        yield before.move_to(after)
