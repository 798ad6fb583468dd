"""``grade check OUTPUT [--input INPUT]``: the output checker students run before submitting.

It applies the grader's own verification (:func:`grader.judging.verify.verify`) and lists every
problem with its line. Without ``--input`` the first printed board stands for the input.
The optimum is computed with the reference solver when it finishes within a node
budget; otherwise optimality is reported as not checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.board import Board
from solver.errors import SearchLimitError, SolutionFormatError
from solver.fileio import read_input
from solver.formats import parse_puzzle, parse_solution
from solver.solve import solve

OPTIMUM_NODE_LIMIT = 2_000_000


@dataclass(frozen=True)
class CheckReport:
    ok: bool
    lines: tuple[str, ...]


def optimum(board: Board, blank_first: bool = False) -> int | None:
    """The optimal move count, or ``None`` when the solver gives up within its budget."""
    board = board.standardized(blank_first)
    if board.is_goal():  # a solved board needs no search (on a 100x100 board one costs seconds to set up)
        return 0
    try:
        return solve(board, node_limit=OPTIMUM_NODE_LIMIT).moves
    except SearchLimitError:
        return None


def check_output(output: Path, input_path: Path | None = None, rules: Rules = Rules()) -> CheckReport:
    """Every problem in ``output``, one entry per problem (``source:line: message`` plus boards)."""
    name = str(output)
    data = read_input(output)
    notes: list[str] = []
    if input_path is not None:
        board: Board | None = parse_puzzle(read_input(input_path), str(input_path))
    elif rules.output_format == "moves":
        return CheckReport(False, (f"{name}: the answer is moves, which start from the puzzle: give it with "
                                   "--input INPUT",))
    else:
        try:
            parsed = parse_solution(data, name, unsolvable_wordings=rules.unsolvable_wordings)
        except SolutionFormatError:
            parsed = None
        board = parsed.boards[0] if parsed and parsed.boards else None
        if parsed and board is not None:
            notes.append(f"note: no --input given, so the first board (line {parsed.board_lines[0]}) is taken "
                         "as the input")
    if board is None:
        # Only the format can be checked: an unreadable file, or a bare 'unsolvable' line.
        result = verify(data, Expected(Board.goal(2), solvable=False, optimal_moves=None), rules)
        if result.verdict in (Verdict.PE, Verdict.NO):
            return CheckReport(False, tuple(p.describe(name) for p in result.problems))
        return CheckReport(True, (f"{name}: says the board is unsolvable; give --input INPUT to check that claim",))
    solvable = board.standardized(rules.blank_first).is_solvable()
    best = optimum(board, rules.blank_first) if solvable else None
    if solvable and best is None:
        notes.append("note: the optimum is too costly to compute here, so optimality was not checked")
    result = verify(data, Expected(board, solvable, best), rules)
    lines = [p.describe(name) for p in result.problems]
    if result.verdict is Verdict.AC:
        goal = Board.goal(board.n, rules.blank_first)
        shown = f" (goal {' / '.join(' '.join(map(str, row)) for row in goal.rows())})" if rules.blank_first else ""
        lines.append(f"{name}: OK: {result.summary}{shown}")
    lines += notes
    if not rules.strict:
        lines += [f"{name}:{n.line}: format note (forgiven): {n.message}" for n in result.notes]
    return CheckReport(result.verdict is Verdict.AC, tuple(lines))
