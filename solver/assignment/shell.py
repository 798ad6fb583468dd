"""``python -m solver shell``: the command-driven puzzle of the A*/beam-search assignment sheet.

The shell keeps one current board, the sheet's goal ``b12 345 678`` at start (``--goal
blank-last`` makes ``123 456 78b`` the goal instead). It runs the commands of
COMMAND_FILE, each echoed after ``> `` so the output reads as a transcript, then prompts
``> `` for more until ``exit`` or end of input. Command names and words are
case-insensitive; blank lines and lines starting with ``#`` are skipped. A bad command
prints one message (in a file, prefixed ``FILE:LINE:``) and the shell goes on.

Commands::

    setState b12 345 678             N rows of N characters, b (or 0) the blank (up to 3x3)
    setState 1 2 3 4 5 6 7 8 0       N*N numbers row by row, 0 (or b) the blank, any N
    setState 3 1 2 3 4 5 6 7 8 0     the same with N first, as in input files
    randomizeState N                 N random moves from the goal (none undoing the one before,
                                     never back at the goal), then print the board; the same N
                                     gives the same board (--seed picks another set)
    printState                       print the board, b for the blank (printStats works too)
    move up|down|left|right          move the BLANK that way and print the board
    solve A-star h1|h2               optimal solution; h1 = misplaced tiles, h2 = Manhattan
    solve beam K                     local beam search keeping K states at each step
    maxNodes N                       a search stops with a message once it has expanded
                                     more than N nodes (default 1,000,000)
    help                             this list
    exit                             leave the shell

``solve`` prints the number of moves and the moves, then the start state and each step:
its number, its direction and the state after it. It does not change the current board,
so several searches can be compared on one board.

``solve beam K`` follows the sheet: local beam search with K states. Its evaluation
function is h2, the Manhattan distance to the goal, which is zero exactly at the goal.
It starts from the current state alone (the sheet's puzzle has one start, where the
textbook's local beam search starts from K random states); at each step it expands every
state of the beam, keeps the K best successors it has not seen before, and stops when a
successor is the goal, or fails when none is left. Every expanded state counts against
maxNodes.
"""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO, TypeVar

import click

from solver.assignment.beam import BEAM_EMPTY, beam_search
from solver.assignment.beam import UNSOLVABLE as BEAM_UNSOLVABLE
from solver.assignment.goals import Goal, parse_goal
from solver.assignment.states import StateError, format_state, parse_state
from solver.board import Board, Move
from solver.errors import MissingInputError, SearchLimitError
from solver.formats import UNSOLVABLE, decode_text
from solver.search.result import SearchResult
from solver.solve import solve

DEFAULT_MAX_NODES = 1_000_000
DEFAULT_SEED = 0
"""The seed of ``randomizeState`` without ``--seed``: every session gives the same puzzle for the same n."""
ResultT = TypeVar("ResultT", bound=SearchResult)
HEURISTIC_NAMES = {"h1": ("hamming", "misplaced tiles"), "h2": ("manhattan", "Manhattan distance")}
ASTAR_NAMES = ("a-star", "astar", "a*")
INDENT = "     "


class CommandError(Exception):
    """A command the shell refuses; the message is shown and the shell goes on."""


def _positive_int(word: str, what: str, least: int = 1) -> int:
    if not word.isdigit() or int(word) < least:
        kind = "a positive whole number" if least else "a whole number (0 or more)"
        raise CommandError(f"{what}: expected {kind}, found {word!r}")
    return int(word)


def _count(number: int, word: str) -> str:
    """``1 move``, ``2 moves``, ``1,500 nodes``."""
    return f"{number:,} {word}{'' if number == 1 else 's'}"


class Shell:
    """One shell session: the current board, the goal, the random source, the node limit and where to print."""

    def __init__(self, out: TextIO, seed: int | None = None, goal: Goal = Goal.BLANK_FIRST) -> None:
        self.out = out
        self.goal = goal
        self.board = goal.board(3)
        self.seed = DEFAULT_SEED if seed is None else seed
        self.max_nodes = DEFAULT_MAX_NODES
        self.commands: dict[str, Callable[[list[str]], None]] = {
            "setstate": self.set_state, "randomizestate": self.randomize_state,
            "printstate": self.print_state, "printstats": self.print_state, "move": self.move,
            "solve": self.solve, "maxnodes": self.set_max_nodes, "help": self.help,
        }

    def say(self, text: str) -> None:
        self.out.write(text + "\n")

    # -- the commands -------------------------------------------------------------
    def set_state(self, words: list[str]) -> None:
        if not words:
            raise CommandError("setState needs a board, e.g. 'setState b12 345 678' or 'setState 1 2 3 0'")
        try:
            self.board = parse_state(words)
        except StateError as exc:
            raise CommandError(f"setState: {exc}") from None

    def randomize_state(self, words: list[str]) -> None:
        if len(words) != 1:
            raise CommandError("randomizeState: expected the number of random moves, e.g. 'randomizeState 20'")
        count = _positive_int(words[0], "randomizeState", least=0)
        # Seeded for each call, as the sheet's "we seeded the random number generator": the same n
        # gives the same puzzle, so one session can solve it several ways (a string seed is hashed
        # the same way on every run and platform).
        rng = random.Random(f"randomizeState {self.seed} {count}")
        self.board = random_walk(self.goal.board(self.board.n), count, rng)
        self.say(format_state(self.board))

    def print_state(self, words: list[str]) -> None:
        if words:
            raise CommandError("printState takes no arguments")
        self.say(format_state(self.board))

    def move(self, words: list[str]) -> None:
        names = ", ".join(m.label for m in Move)
        if len(words) != 1 or words[0].upper() not in Move.__members__:
            raise CommandError(f"move: expected one of {names}, found {' '.join(words) or 'nothing'}")
        try:
            self.board = self.board.apply(Move[words[0].upper()])
        except ValueError as exc:
            raise CommandError(f"move: {exc}") from None
        self.say(format_state(self.board))

    def set_max_nodes(self, words: list[str]) -> None:
        if len(words) != 1:
            raise CommandError("maxNodes: expected one number, e.g. 'maxNodes 5000'")
        self.max_nodes = _positive_int(words[0], "maxNodes")

    def help(self, words: list[str]) -> None:
        doc = __doc__ or ""
        self.say(textwrap.dedent(doc[doc.index("Commands::") + len("Commands::"):doc.index("``solve`` prints")])
                 .strip("\n"))

    def solve(self, words: list[str]) -> None:
        kind = words[0].lower() if words else ""
        start = self.goal.to_standard(self.board)
        if kind in ASTAR_NAMES and len(words) == 2 and words[1].lower() in HEURISTIC_NAMES:
            heuristic, title = HEURISTIC_NAMES[words[1].lower()]
            name = f"A* with {words[1].lower()} ({title})"
            result = self._search(name, lambda: solve(start, "astar", heuristic, self.max_nodes))
        elif kind == "beam" and len(words) == 2:
            width = _positive_int(words[1], "solve beam")
            name = f"Beam search (k = {width})"
            result = self._search(name, lambda: beam_search(start, width, self.max_nodes))
            if result.outcome == BEAM_EMPTY:
                self.say(f"{name} failed: the beam emptied after {result.levels} levels without reaching "
                         f"the goal ({_count(result.expanded, 'node')} expanded).")
                return
            if result.outcome == BEAM_UNSOLVABLE:
                result = SearchResult(None, 0, 0, 0.0, "beam", "manhattan")
        else:
            raise CommandError("solve: expected 'solve A-star h1', 'solve A-star h2' or 'solve beam K'")
        result = self.goal.result(result)
        if result.path is None:
            self.say(f"{UNSOLVABLE}: this board cannot reach the goal.")
            return
        moves = result.move_list()
        self.say(f"{name}: {_count(result.moves, 'move')}, {_count(result.expanded, 'node')} expanded, "
                 f"{result.generated:,} generated.")
        self.say("Moves: " + (" ".join(move.label for move in moves) if moves else "none, already solved"))
        self.say("Start:")
        self.say(format_state(result.path[0], indent=INDENT))
        for number, (move, board) in enumerate(zip(moves, result.path[1:]), start=1):
            self.say(f"{number:>3}. {move.label}")
            self.say(format_state(board, indent=INDENT))

    def _search(self, name: str, search: Callable[[], ResultT]) -> ResultT:
        try:
            return search()
        except SearchLimitError as exc:
            raise CommandError(f"solve: {name} stopped after expanding {exc.expanded:,} nodes, more than "
                               f"maxNodes {exc.limit:,}; no solution found within the limit") from None

    # -- running --------------------------------------------------------------------
    def execute(self, line: str, where: str = "") -> bool:
        """Run one command line; False when it was ``exit``. Errors are printed, never raised."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return True
        name = words[0].lower()
        if name in ("exit", "quit"):
            return False
        command = self.commands.get(name)
        try:
            if command is None:
                raise CommandError(f"unknown command {words[0]!r}; type 'help' for the list")
            command(words[1:])
        except CommandError as exc:
            self.say(f"{where}{exc}")
        return True

    def run_script(self, lines: Iterable[str], source: str) -> bool:
        """Run a command file's lines, echoing each; False when one of them was ``exit``."""
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            self.say(f"> {text}")
            if not self.execute(text, f"{source}:{number}: "):
                return False
        return True

    def interact(self, stdin: TextIO) -> None:
        """Prompt ``> `` and run each line until ``exit`` or end of input.

        At a terminal, ``input()`` gives line editing and history (with readline).
        """
        terminal = stdin.isatty() and self.out is sys.stdout and stdin is sys.stdin
        if terminal:
            try:
                import readline  # noqa: F401  (input() uses it once imported)
            except ImportError:
                pass
        while True:
            try:
                if terminal:
                    line = input("> ")
                else:
                    self.out.write("> ")
                    self.out.flush()
                    line = stdin.readline()
                    if not line:
                        raise EOFError
            except EOFError:
                self.out.write("\n")
                return
            if not self.execute(line):
                return


def random_walk(goal: Board, count: int, rng: random.Random) -> Board:
    """``count`` random moves from ``goal`` that never undo the move before and never step onto the goal.

    So for ``count`` > 0 the board is never the goal: a walk that merely avoided undoing could
    still circle back (twelve moves around a 2×2 block on a 3×3 board). On a 2×2 board, where
    every board has just two neighbours, a walk must turn back once in each twelve moves; it
    does so only when the one other way is the goal.

    >>> walk = random_walk(Board.goal(2), 12, random.Random(1))
    >>> walk.is_goal(), walk.is_solvable()
    (False, True)
    """
    board, last = goal, None
    for _ in range(count):
        choices = [(m, b) for m, b in board.successors() if b != goal]
        onward = [(m, b) for m, b in choices if m.opposite is not last]
        last, board = rng.choice(onward or choices)
    return board


def read_commands(path: str) -> list[str]:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise MissingInputError(path, None, "a command file", "no such file") from None
    except OSError as exc:
        raise MissingInputError(path, None, "a readable command file", exc.strerror or str(exc)) from None
    return decode_text(data, path).splitlines()


def goal_option(function: Callable) -> Callable:
    """``--goal``: the goal board of the shell and the experiment."""

    def convert(ctx: click.Context, param: click.Parameter, value: str) -> Goal:
        try:
            return parse_goal(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None

    return click.option("--goal", default=Goal.BLANK_FIRST.value, show_default=True, callback=convert,
                        metavar="blank-first|blank-last",
                        help="The solved board: blank-first is the command sheet's 'b12 345 678', "
                             "blank-last is '123 456 78b' (Princeton's and CMPE 160's).")(function)


@click.command("shell")
@click.argument("command_file", required=False, type=click.Path(dir_okay=False))
@click.option("--seed", type=int, default=None,
              help=f"Seed for randomizeState (default {DEFAULT_SEED}): the same N gives the same board in every "
                   "session with the same seed, as the sheet's seeded generator does.")
@goal_option
def shell(command_file: str | None, seed: int | None, goal: Goal) -> int:
    """Run COMMAND_FILE's puzzle commands, then prompt '> ' until 'exit' or end of input.

    Commands (case-insensitive): setState, randomizeState N, printState (or printStats),
    move up|down|left|right, solve A-star h1|h2, solve beam K, maxNodes N, help, exit.
    The goal is the sheet's 'b12 345 678' unless --goal says otherwise.

    'solve beam K' is the sheet's local beam search with K states: it starts from the
    current state, keeps the K best unseen successors at each step by h2 (the Manhattan
    distance, zero exactly at the goal), and fails when none is left. Type 'help' in the
    shell for details.
    """
    session = Shell(sys.stdout, seed, goal)
    if command_file is not None and not session.run_script(read_commands(command_file), command_file):
        return 0
    session.interact(sys.stdin)
    return 0
