"""What a verification takes and gives: the case's expected answer, the assignment's output rules,
and the verdict with every problem found, each on its line.

Shared by the two checkers, :mod:`grader.judging.verify` (printed boards) and
:mod:`grader.judging.moves_check` (printed moves), and by everything that reads their results.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.judging.verdicts import Verdict
from grader.testsets.assignment import Assignment
from solver.board import Board
from solver.formats import DEFAULT_UNSOLVABLE_WORDINGS
from solver.notes import Note

MAX_LISTED_STEPS = 5
"""Illegal steps and repeats listed one by one before the rest are summed up."""


@dataclass(frozen=True)
class Expected:
    """What the case's answer must be: the input board and, if known, the optimum."""

    board: Board
    solvable: bool
    optimal_moves: int | None


@dataclass(frozen=True)
class Rules:
    """The assignment's output rules."""

    unsolvable_wordings: tuple[str, ...] = DEFAULT_UNSOLVABLE_WORDINGS
    blank_first: bool = False
    strict: bool = False
    output_format: str = "boards"
    moves_style: str = "lines"
    move_names: str = "blank"

    @classmethod
    def of(cls, assignment: Assignment) -> Rules:
        """The output rules an ``assignment.toml`` sets."""
        return cls(assignment.unsolvable_wordings, assignment.blank_first, assignment.strict,
                   assignment.output_format, assignment.moves_style, assignment.move_names)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the output, with the line it is on and the boards involved."""

    verdict: Verdict
    line: int | None
    message: str
    detail: str = ""

    def describe(self, source: str = "output") -> str:
        where = f"{source}:{self.line}" if self.line is not None else source
        return f"{where}: {self.message}" + (f"\n{self.detail}" if self.detail else "")


@dataclass(frozen=True)
class Verification:
    verdict: Verdict
    problems: tuple[Problem, ...]
    summary: str
    moves: int | None = None
    boards: tuple[Board, ...] = ()
    notes: tuple[Note, ...] = field(default=())

    def message(self, source: str = "output") -> str:
        """The first problem in full (the one that decided the verdict), or the summary."""
        return self.problems[0].describe(source) if self.problems else self.summary
