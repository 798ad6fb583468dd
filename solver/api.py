"""The Solver the assignment sheets name: Princeton's ``Solver`` and CMPE 160's ``Solver``.

A thin object over :func:`solver.solve.solve`: it solves once, on construction, and
answers the sheets' questions about the result. Together with :class:`solver.board.Board`
it is the whole student-facing API. The board, with Princeton's names::

    >>> from solver import Board, Solver
    >>> board = Board.from_tiles([8, 1, 3, 4, 0, 2, 7, 6, 5])
    >>> board.hamming(), board.manhattan()
    (5, 10)
    >>> print(board)
    3
    8 1 3
    4 0 2
    7 6 5
    >>> print(board.twin())
    3
    1 8 3
    4 0 2
    7 6 5
    >>> len(board.neighbors()), board.neighbors()[0] == Board.from_tiles([8, 0, 3, 4, 1, 2, 7, 6, 5])
    (4, True)
    >>> board == Board.from_tiles([8, 1, 3, 4, 0, 2, 7, 6, 5]), board == board.twin()
    (True, False)

and CMPE 160's (thin aliases of the same methods)::

    >>> board.h(), board.is_completed(), board.get_adjacents() == board.neighbors()
    (10, False, True)

The solver::

    >>> solver = Solver(Board.from_tiles([0, 1, 3, 4, 2, 5, 7, 8, 6]))
    >>> solver.is_solvable(), solver.moves()
    (True, 4)
    >>> print(solver.solution()[-1])
    3
    1 2 3
    4 5 6
    7 8 0
"""

from __future__ import annotations

from solver.board import Board
from solver.search.result import SearchResult
from solver.solve import solve


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
        return None if self.result.path is None else list(self.result.path)

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
