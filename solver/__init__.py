"""npuzzle-grader's reference solver: input file → parse → Board → search → path → format → output.txt.

The top level is the core: the board model (:mod:`solver.board`), the file formats
(:mod:`solver.formats`, :mod:`solver.fileio`), the errors (:mod:`solver.errors`), the choice of
an optimal method (:mod:`solver.solve`), the Princeton/CMPE 160 API (:mod:`solver.api`) and the
CLIs. :mod:`solver.search` holds the searches, :mod:`solver.assignment` the sheets' extras.
Each module may import only the layers below its own (pyproject.toml's contracts); ``solver`` never imports
``grader``. The grader imports only the core (the board, the parser and the move rules, the oracle) and
never re-implements them.
"""

from solver.api import Puzzle, Solver
from solver.board import Board, Move

__all__ = ["Board", "Move", "Puzzle", "Solver"]
