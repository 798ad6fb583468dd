"""Verification: does a printed answer solve the case? One function owns the order of checks.

The output is parsed leniently with the solver's own parser
(:func:`solver.formats.parse_solution`) and the path is checked with the solver's own
move rules (:meth:`Board.move_to`); nothing here re-implements them. The checks, in order:

1. something was printed (else ``NO``) and it can be read (else ``PE``);
2. unsolvable cases: the output says so in an accepted wording, and nothing else;
3. the header gives K;
4. the first board is the input;
5. each step moves the blank by exactly one cell;
6. no board repeats;
7. the last board is the goal;
8. the path has K+1 boards;
9. K equals the known optimum (longer: ``SUB``);
10. with ``strict``, every forgiven format deviation is a ``PE``.

The verdict comes from the first failed check; every problem found is kept, with its
line, for ``grade check`` and the feedback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.judging.boardview import side_by_side
from grader.judging.moves_check import verify_moves
from grader.judging.verdicts import Verdict
from grader.judging.verification import MAX_LISTED_STEPS, Expected, Problem, Rules, Verification
from solver.board import Board
from solver.errors import SolutionFormatError
from solver.formats import HEADER, ParsedSolution, parse_solution


def verify(output: bytes | str, expected: Expected, rules: Rules = Rules()) -> Verification:
    """Check one printed answer against the case; see the module docstring for the order.

    An assignment whose answers are moves (``rules.output_format == "moves"``) is checked by
    :func:`grader.judging.moves_check.verify_moves` instead.
    """
    if rules.output_format == "moves":

        return verify_moves(output, expected, rules)
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
    if not text.strip():
        return _result([Problem(Verdict.NO, None, "nothing was printed")], "no output")
    try:
        parsed = parse_solution(output, "output", n=expected.board.n, unsolvable_wordings=rules.unsolvable_wordings)
    except SolutionFormatError as exc:
        hint = ""
        first = text.strip().splitlines()[0]
        # A first line of words, not numbers, is an attempt at saying "unsolvable": name the accepted wordings.
        if (not expected.solvable and len(text.strip().splitlines()) == 1) or \
                (re.search(r"[A-Za-z]{3}", first) and not re.search(r"\d|moves", first, re.I)):
            hint = (f" (to say a board is unsolvable, print one of the wordings this assignment accepts: "
                    f"{', '.join(map(repr, rules.unsolvable_wordings))})")
        return _result([Problem(Verdict.PE, exc.line, f"expected {exc.expected}, found {exc.found}{hint}")],
                       "unreadable output")
    problems = _content_problems(parsed, expected, rules)
    if rules.strict:
        problems += [Problem(Verdict.PE, note.line, f"format: {note.message}") for note in parsed.notes]
    return _result(problems, _summary(parsed, expected), parsed)


def _result(problems: list[Problem], summary: str, parsed: ParsedSolution | None = None) -> Verification:
    verdict = problems[0].verdict if problems else Verdict.AC
    if parsed is None:
        return Verification(verdict, tuple(problems), summary)
    return Verification(verdict, tuple(problems), summary, parsed.moves, parsed.boards, parsed.notes)


def _summary(parsed: ParsedSolution, expected: Expected) -> str:
    if parsed.unsolvable and not parsed.boards:
        return "correctly says the board is unsolvable"
    if expected.optimal_moves is not None and parsed.moves == expected.optimal_moves:
        return f"a legal {parsed.moves}-move path to the goal (optimal)"
    return f"a legal {parsed.moves}-move path to the goal"


def _content_problems(parsed: ParsedSolution, expected: Expected, rules: Rules) -> list[Problem]:
    boards, lines = parsed.boards, parsed.board_lines
    if parsed.unsolvable:
        if expected.solvable:
            known = f" in {expected.optimal_moves} moves" if expected.optimal_moves is not None else ""
            return [Problem(Verdict.WA, parsed.unsolvable_line,
                            f"says the board is unsolvable, but it can be solved{known}")]
        # Princeton's moves() is -1 for an unsolvable board; a header saying so is not a solution.
        if boards or (parsed.moves is not None and parsed.moves >= 0):
            return [Problem(Verdict.WA, parsed.header_line or lines[0],
                            "says the board is unsolvable, but also prints a solution")]
        return []
    if not expected.solvable:
        return [Problem(Verdict.WA, parsed.header_line or (lines[0] if lines else None),
                        "the board is unsolvable, but the output claims a solution (expected one of: "
                        f"{', '.join(map(repr, rules.unsolvable_wordings))})")]
    problems: list[Problem] = []
    if parsed.moves is None:
        problems.append(Problem(Verdict.WA, lines[0] if lines else 1,
                                f"no header line {HEADER.format(moves='K')!r} giving the number of moves"))
    if not boards:
        problems.append(Problem(Verdict.WA, parsed.header_line, "no boards printed after the header"))
        return problems
    standard = [board.standardized(rules.blank_first) for board in boards]
    start = expected.board.standardized(rules.blank_first)
    problems += _first_board(boards, lines, standard, start, expected.board)
    problems += _steps(boards, lines)
    if not standard[-1].is_goal():
        shown_goal = Board.goal(start.n, rules.blank_first)
        problems.append(Problem(Verdict.WA, lines[-1], "the last board is not the goal",
                                side_by_side([("goal", shown_goal), (f"last board (line {lines[-1]})", boards[-1])])))
    made = len(boards) - 1
    if parsed.moves is not None and parsed.moves != made:
        problems.append(Problem(Verdict.WA, parsed.header_line,
                                f"the header says {_plural(parsed.moves, 'move')}, but {_plural(len(boards), 'board')} "
                                f"make {_plural(made, 'move')} (a path of K moves has K+1 boards, the input first)"))
    if problems:
        return problems
    optimum = expected.optimal_moves
    if optimum is not None and made > optimum:
        return [Problem(Verdict.SUB, parsed.header_line, f"a legal path to the goal, but it takes {made} moves; "
                                                         f"the shortest takes {optimum}")]
    if optimum is not None and made < optimum:
        return [Problem(Verdict.JE, parsed.header_line, f"a legal {made}-move path beats the test set's certified "
                                                        f"optimum of {optimum}: the test set is wrong")]
    return []


def _wrap_hint(before: Board, after: Board) -> str:
    """Name the classic bug: the blank 'moves' from the end of one row to the start of the next."""
    if before.n != after.n:
        return ""
    p, q, n = before.blank, after.blank, before.n
    changed = [i for i in range(n * n) if before.tiles[i] != after.tiles[i]]
    if abs(p - q) == 1 and p // n != q // n and sorted(changed) == sorted((p, q)):
        return (f"; the blank wrapped from row {p // n + 1}, column {p % n + 1} to row {q // n + 1}, "
                f"column {q % n + 1}: a left/right move must stay in its row")
    return ""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _first_board(boards: Sequence[Board], lines: Sequence[int], standard: Sequence[Board], start: Board,
                 shown_input: Board) -> list[Problem]:
    if standard[0] == start:
        return []
    view = side_by_side([("input", shown_input), (f"first board (line {lines[0]})", boards[0])])
    if standard[0].is_goal() and standard[-1] == start:
        return [Problem(Verdict.WA, lines[0], "the path is printed in reverse: it starts at the goal and ends at "
                                              "the input (print it from the input to the goal)", view)]
    if start.move_to(standard[0]) is not None:
        return [Problem(Verdict.WA, lines[0], "the first board is one move after the input: the input board "
                                              "itself must be printed first", view)]
    return [Problem(Verdict.WA, lines[0], "the first board is not the input", view)]


def _step_view(boards: Sequence[Board], lines: Sequence[int], index: int) -> str:
    """The boards of step ``index`` side by side: drawn only for a step that is wrong (most are right)."""
    return side_by_side([(f"line {lines[index - 1]}", boards[index - 1]), (f"line {lines[index]}", boards[index])])


def _steps(boards: Sequence[Board], lines: Sequence[int]) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[tuple[int, ...], int] = {}
    extra = 0
    for index, board in enumerate(boards):
        if index:
            before = boards[index - 1]
            where = f"step {index} (boards on lines {lines[index - 1]} and {lines[index]})"
            problem = None
            if board == before:
                what = "the goal is" if board.is_goal() else "the same board is"
                problem = Problem(Verdict.WA, lines[index], f"{where}: {what} printed twice "
                                                            "(that is not a move)", _step_view(boards, lines, index))
            elif before.move_to(board) is None:
                problem = Problem(Verdict.WA, lines[index], f"{where}: not a legal move (the blank must slide one "
                                                            f"cell up, down, left or right){_wrap_hint(before, board)}",
                                  _step_view(boards, lines, index))
            elif board.tiles in seen:
                first = seen[board.tiles]
                problem = Problem(Verdict.WA, lines[index], f"{where}: returns to the board already printed on "
                                                            f"line {lines[first]} (a path never repeats a board)")
            if problem is not None:
                if len(problems) < MAX_LISTED_STEPS:
                    problems.append(problem)
                else:
                    extra += 1
        seen.setdefault(board.tiles, index)
    if extra:
        problems.append(Problem(Verdict.WA, None, f"... and {extra} more bad steps"))
    return problems
