"""The classes the assignment sheets name: Princeton's ``Board`` and ``Solver``, CMPE 160's
``Puzzle`` and ``Solver``.

:class:`Solver` is a thin object over :func:`solver.solve.solve`: it solves once, on
construction, and answers the sheets' questions about the result. Together with
:class:`solver.board.Board` (and its CMPE 160 face :class:`Puzzle`) it is the whole
student-facing API.

Princeton's ``Board(int[][] tiles)`` takes a 2-D list and refuses anything else::

    >>> from solver import Board, Puzzle, Solver
    >>> board = Board([[8, 1, 3], [4, 0, 2], [7, 6, 5]])
    >>> board.dimension(), board.hamming(), board.manhattan(), board.is_goal()
    (3, 5, 10, False)
    >>> Board(None)
    Traceback (most recent call last):
    ...
    TypeError: Board needs an n-by-n grid of tiles (a list of n rows of n integers), found None
    >>> Board([[1, 2, 3], [4, 0], [7, 8, 6]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Board needs an n-by-n grid of tiles (a list of n rows of n integers): row 2 has 2 tiles, expected 3 ...

``toString()`` is ``str(board)``: N, then each tile as ``%2d `` and a newline after each row::

    >>> str(board)
    '3\\n 8  1  3 \\n 4  0  2 \\n 7  6  5 \\n'
    >>> str(board.twin())  # two adjacent tiles of one row swapped, never the blank
    '3\\n 1  8  3 \\n 4  0  2 \\n 7  6  5 \\n'
    >>> len(board.neighbors()), board.neighbors()[0] == Board([[8, 0, 3], [4, 1, 2], [7, 6, 5]])
    (4, True)
    >>> board == Board([[8, 1, 3], [4, 0, 2], [7, 6, 5]]), board == board.twin()
    (True, False)

CMPE 160's ``Puzzle`` is the same board with the course's names and its ``toString``::

    >>> puzzle = Puzzle([[8, 1, 3], [4, 0, 2], [7, 6, 5]])
    >>> puzzle.h(), puzzle.is_completed(), puzzle.get_adjacents() == board.neighbors(), puzzle == board
    (10, False, True, True)
    >>> print(puzzle, end="")
    3
     8 1 3
     4 0 2
     7 6 5

The solver (Princeton's names, then CMPE 160's)::

    >>> solver = Solver(Board([[0, 1, 3], [4, 2, 5], [7, 8, 6]]))
    >>> solver.is_solvable(), solver.moves()
    (True, 4)
    >>> solver.solution()[-1] == Board.goal(3), solver.solution()[0] == solver.initial
    (True, True)
    >>> cmpe = Solver(Puzzle([[0, 1, 3], [4, 2, 5], [7, 8, 6]]))
    >>> len(cmpe.solve()), cmpe.get_moves(), type(cmpe.get_solution()[-1]).__name__
    (5, 4, 'Puzzle')
"""

from __future__ import annotations

from solver.board import Board
from solver.search.result import SearchResult
from solver.solve import solve


class Puzzle(Board):
    """CMPE 160's name for the board: the same :class:`Board` (built the same ways, equal to the
    Board with the same tiles, with the aliases ``h()``, ``is_completed()``, ``get_adjacents()``),
    whose ``str`` is the course's ``toString``: N, then each row with a space before every tile,
    a newline after every row (the rows of the course's expected output files).

    >>> str(Puzzle([[1, 2], [3, 0]]))
    '2\\n 1 2\\n 3 0\\n'
    >>> type(Puzzle([[1, 2], [0, 3]]).neighbors()[0]).__name__
    'Puzzle'
    """

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.n}\n" + "".join("".join(f" {tile}" for tile in row) + "\n" for row in self.rows())


class Solver:
    """An optimal solution of one board, found when the solver is built.

    ``Solver(None)`` (or anything that is not a :class:`Board`) is refused with a
    ``TypeError`` that says what was expected, as Princeton's sheet asks for
    an ``IllegalArgumentException``::

        >>> Solver(None)
        Traceback (most recent call last):
        ...
        TypeError: Solver needs a Board to solve, found None

    Unsolvable boards are recognised without searching::

        >>> unsolvable = Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 8, 7, 0]))
        >>> unsolvable.is_solvable(), unsolvable.moves(), unsolvable.solution()
        (False, -1, None)

    ``node_limit`` is passed to :func:`solver.solve.solve`, which raises
    :class:`solver.errors.SearchLimitError` beyond it.
    """

    def __init__(self, initial: Board, *, node_limit: int | None = None) -> None:
        if not isinstance(initial, Board):
            found = "None" if initial is None else f"a {type(initial).__name__}"
            raise TypeError(f"Solver needs a Board to solve, found {found}")
        self.initial = initial
        self.result: SearchResult = solve(initial, node_limit=node_limit)
        """The underlying search result, with its counters (expanded, generated, seconds)."""
        kind = type(initial)
        self._path: tuple[Board, ...] | None = None if self.result.path is None else tuple(
            board if type(board) is kind else kind(board.tiles, board.n) for board in self.result.path)

    def is_solvable(self) -> bool:
        """Whether the goal can be reached from the initial board.

        >>> Solver(Board.goal(3)).is_solvable()
        True
        """
        return self.result.path is not None

    def moves(self) -> int:
        """The minimum number of moves to the goal, or -1 when the board is unsolvable.

        >>> Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 0, 8])).moves()
        1
        """
        return self.result.moves

    def solution(self) -> list[Board] | None:
        """The boards of one shortest solution, the initial board first and the goal last;
        ``None`` when the board is unsolvable.

        >>> [b.blank for b in Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8])).solution()]
        [6, 7, 8]
        """
        return None if self._path is None else list(self._path)

    def solve(self) -> list[Board] | None:
        """CMPE 160's ``solve()``: the search already ran when the solver was built (as the
        course's template says), so this returns its :meth:`solution`, the boards of the
        initial's own class.

        >>> [b.blank for b in Solver(Puzzle([[1, 2, 3], [4, 5, 6], [0, 7, 8]])).solve()]
        [6, 7, 8]
        """
        return self.solution()

    # -- CMPE 160 names: thin aliases -----------------------------------------------
    def get_moves(self) -> int:
        """CMPE 160's name for :meth:`moves`.

        >>> Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8])).get_moves()
        2
        """
        return self.moves()

    def get_solution(self) -> list[Board] | None:
        """CMPE 160's name for :meth:`solution`.

        >>> len(Solver(Board.from_tiles([1, 2, 3, 4, 5, 6, 0, 7, 8])).get_solution())
        3
        """
        return self.solution()

    def __repr__(self) -> str:
        return f"Solver(moves={self.moves()}, tiles={self.initial.tiles})"
