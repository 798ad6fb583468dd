"""npuzzle-grader's reference solver: the board model, the file formats and optimal search."""

from solver.api import Solver
from solver.board import Board, Move

__all__ = ["Board", "Move", "Solver"]
