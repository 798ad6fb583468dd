"""Verification of an answer printed as moves (``[output] format = "moves"``).

The moves are read by :func:`grader.judging.moves_format.parse_moves` and replayed from
the case's input with the solver's own move rules (:meth:`solver.board.Board.apply`),
in the assignment's direction convention. The checks, in order (the first failed one
gives the verdict; every problem found is kept):

1. something was printed (an empty answer is right only for a board already at the goal);
2. it can be read (else ``PE``);
3. unsolvable cases: the answer says so, and gives no moves;
4. every move is legal where it is made;
5. no board repeats;
6. the last board is the assignment's goal (blank last or blank first);
7. ``cost_of_path``, when printed, is the number of moves;
8. the number of moves is the certified optimum (longer: ``SUB``; shorter: ``JE``, the
   test set is wrong);
9. with ``strict``, every forgiven spelling is a ``PE``.

When the moves fail as printed but are legal and reach the goal read the other way
round (the tile's direction instead of the blank's, or back), the message says so.
"""

from __future__ import annotations

from grader.judging.boardview import side_by_side
from grader.judging.moves_format import ParsedMoves, blank_move, parse_moves
from grader.judging.verdicts import Verdict
from grader.judging.verification import MAX_LISTED_STEPS, Expected, Problem, Rules, Verification
from solver.board import Board, Move
from solver.errors import SolutionFormatError

MAX_KEPT_BOARDS = 10_000
"""Boards kept for the report's replay; a runaway answer is checked to its end but not stored whole."""

_CONVENTION = {"blank": "the direction the blank moves", "tile": "the direction the tile moves"}


def verify_moves(output: bytes | str, expected: Expected, rules: Rules) -> Verification:
    """Check a moves answer against the case; see the module docstring for the order."""
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
    goal = Board.goal(expected.board.n, rules.blank_first)
    if not text.strip():
        if expected.solvable and expected.board == goal:
            return Verification(Verdict.AC, (), "no moves: the board is already at the goal", 0, (expected.board,))
        return Verification(Verdict.NO, (Problem(Verdict.NO, None, "nothing was printed"),), "no output")
    try:
        parsed = parse_moves(output, rules.moves_style, "output", unsolvable_wordings=rules.unsolvable_wordings)
    except SolutionFormatError as exc:
        hint = ""
        if not expected.solvable and len(text.strip().splitlines()) == 1:
            hint = f" (to say a board is unsolvable, print one of: {', '.join(map(repr, rules.unsolvable_wordings))})"
        return Verification(Verdict.PE, (Problem(Verdict.PE, exc.line, f"expected {exc.expected}, found "
                                                                         f"{exc.found}{hint}"),), "unreadable output")
    problems, boards = _problems(parsed, expected, rules, goal)
    if rules.strict:
        problems += [Problem(Verdict.PE, note.line, f"format: {note.message}") for note in parsed.notes]
    verdict = problems[0].verdict if problems else Verdict.AC
    return Verification(verdict, tuple(problems), _summary(parsed, expected), len(parsed.moves), tuple(boards),
                        parsed.notes)


def _summary(parsed: ParsedMoves, expected: Expected) -> str:
    if parsed.unsolvable and not parsed.moves:
        return "correctly says the board is unsolvable"
    count = len(parsed.moves)
    if expected.optimal_moves is not None and count == expected.optimal_moves:
        return f"a legal {count}-move path to the goal (optimal)"
    return f"a legal {count}-move path to the goal"


def _problems(parsed: ParsedMoves, expected: Expected, rules: Rules, goal: Board) -> tuple[list[Problem], list[Board]]:
    first_line = parsed.move_lines[0] if parsed.move_lines else None
    if parsed.unsolvable:
        if expected.solvable:
            known = f" in {expected.optimal_moves} moves" if expected.optimal_moves is not None else ""
            return [Problem(Verdict.WA, parsed.unsolvable_line,
                            f"says the board is unsolvable, but it can be solved{known}")], []
        if parsed.moves:
            return [Problem(Verdict.WA, first_line, "says the board is unsolvable, but also prints moves")], []
        return [], []
    if not expected.solvable:
        accepted = ", ".join(map(repr, rules.unsolvable_wordings))
        return [Problem(Verdict.WA, first_line or 1,
                        f"the board is unsolvable, but the output gives moves (expected one of: {accepted})")], []
    problems: list[Problem] = []
    boards, illegal = _replay(expected.board, parsed, rules.move_names)
    convention = _CONVENTION[rules.move_names]
    other = "tile" if rules.move_names == "blank" else "blank"
    swapped = _reaches(expected.board, parsed.moves, other, goal)
    hint = (f"; read as {_CONVENTION[other]}, the moves are legal and reach the goal: in this assignment a move "
            f"names {convention}") if swapped else ""
    if illegal is not None:
        index, before = illegal
        token, line = parsed.tokens[index], parsed.move_lines[index]
        direction = blank_move(parsed.moves[index], rules.move_names)
        row, col = before.blank // before.n + 1, before.blank % before.n + 1
        wrap = "; a left/right move must stay in its row" if direction in (Move.LEFT, Move.RIGHT) else ""
        problems.append(Problem(Verdict.WA, line, f"move {index + 1} ({token!r}) is not legal: the blank is in row "
                                                  f"{row}, column {col} and cannot move {direction.label} (a move "
                                                  f"names {convention}){wrap}{hint}",
                                side_by_side([(f"before move {index + 1}", before)], mark=False)))
        return problems, boards
    problems += _repeats(boards, parsed)
    if boards[-1] != goal:
        line = parsed.move_lines[-1] if parsed.move_lines else 1
        problems.append(Problem(Verdict.WA, line, f"the moves end on a board that is not the goal{hint}",
                                side_by_side([("goal", goal), (f"after {len(parsed.moves)} moves", boards[-1])])))
    made = len(parsed.moves)
    if parsed.cost is not None and parsed.cost != made:
        problems.append(Problem(Verdict.WA, parsed.cost_line, f"cost_of_path says {parsed.cost}, but the path has "
                                                               f"{made} move{'' if made == 1 else 's'}"))
    if problems:
        return problems, boards
    optimum = expected.optimal_moves
    if optimum is not None and made > optimum:
        return [Problem(Verdict.SUB, first_line, f"a legal path to the goal, but it takes {made} moves; the "
                                                 f"shortest takes {optimum}")], boards
    if optimum is not None and made < optimum:
        return [Problem(Verdict.JE, first_line, f"a legal {made}-move path beats the test set's certified optimum "
                                                f"of {optimum}: the test set is wrong")], boards
    return [], boards


def _replay(start: Board, parsed: ParsedMoves, move_names: str) -> tuple[list[Board], tuple[int, Board] | None]:
    """The boards of the path (at most :data:`MAX_KEPT_BOARDS`), and the first illegal move with the board before it.

    The path is followed to its end even when it is not all kept, so the last board is the real one.
    """
    boards, board = [start], start
    for index, move in enumerate(parsed.moves):
        try:
            board = board.apply(blank_move(move, move_names))
        except ValueError:
            return boards, (index, board)
        if len(boards) < MAX_KEPT_BOARDS:
            boards.append(board)
        elif index == len(parsed.moves) - 1:
            boards[-1] = board
    return boards, None


def _reaches(start: Board, moves: tuple[Move, ...], move_names: str, goal: Board) -> bool:
    """Whether the moves, read in the convention ``move_names``, are legal and end on the goal."""
    if not moves:
        return False
    board = start
    for move in moves:
        try:
            board = board.apply(blank_move(move, move_names))
        except ValueError:
            return False
    return board == goal


def _repeats(boards: list[Board], parsed: ParsedMoves) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[tuple[int, ...], int] = {}
    extra = 0
    for index, board in enumerate(boards):
        if board.tiles in seen:
            if len(problems) < MAX_LISTED_STEPS:
                first = seen[board.tiles]
                where = "the input" if first == 0 else f"the board after move {first}"
                problems.append(Problem(Verdict.WA, parsed.move_lines[index - 1],
                                        f"move {index} ({parsed.tokens[index - 1]!r}) returns to {where} "
                                        "(a path never repeats a board)"))
            else:
                extra += 1
        seen.setdefault(board.tiles, index)
    if extra:
        problems.append(Problem(Verdict.WA, None, f"... and {extra} more repeated boards"))
    return problems
