"""``python -m solver shell``: the command-driven puzzle of the A*/beam-search assignment.

The shell keeps one current board (the 3×3 goal at start). It runs the commands of
COMMAND_FILE, each echoed after ``> `` so the output reads as a transcript, then
prompts ``> `` for more until ``exit`` or end of input. Command names and words
are case-insensitive; blank lines and lines starting with ``#`` are skipped. A bad
command prints one message (in a file, prefixed ``FILE:LINE:``) and the shell goes on.

Commands::

    setState b12 345 678             N rows of N characters, b (or 0) the blank (up to 3x3)
    setState 1 2 3 4 5 6 7 8 0       N*N numbers row by row, 0 (or b) the blank, any N
    setState 3 1 2 3 4 5 6 7 8 0     the same with N first, as in input files
    randomizeState N                 N random moves from the goal (repeatable with --seed)
    printState                       print the board, b for the blank
    move up|down|left|right          move the BLANK that way (solver.board's convention)
    solve A-star h1|h2               optimal solution; h1 = misplaced tiles, h2 = Manhattan
    solve beam K                     local beam search keeping K boards per level (Manhattan)
    maxNodes N                       searches stop once more than N nodes are expanded
                                     (default 1,000,000)
    help                             this list
    exit                             leave the shell

``solve`` prints the result, then each move with the board after it; it does not
change the current board, so several searches can be compared on one board.
"""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO, TypeVar

import click

from solver.assignment.beam import BEAM_EMPTY, UNSOLVABLE as BEAM_UNSOLVABLE, beam_search
from solver.board import Board, Move
from solver.errors import MissingInputError, SearchLimitError
from solver.formats import UNSOLVABLE, decode_text
from solver.search.result import SearchResult
from solver.solve import solve

DEFAULT_MAX_NODES = 1_000_000
ResultT = TypeVar("ResultT", bound=SearchResult)
HEURISTIC_NAMES = {"h1": ("hamming", "misplaced tiles"), "h2": ("manhattan", "Manhattan distance")}
ASTAR_NAMES = ("a-star", "astar", "a*")


class CommandError(Exception):
    """A command the shell refuses; the message is shown and the shell goes on."""


def format_state(board: Board, indent: str = "") -> str:
    """The board as rows of right-aligned tiles, ``b`` for the blank.

    >>> print(format_state(Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])))
    1 2 3
    4 b 6
    7 5 8
    """
    width = len(str(board.n * board.n - 1))
    return "\n".join(indent + " ".join(f"{t if t else 'b':>{width}}" for t in row) for row in board.rows())


def parse_state(words: list[str]) -> Board:
    """The board of a ``setState`` command's arguments (see the module doc for the forms);
    :class:`CommandError` says what is wrong.

    >>> parse_state("b12 345 678".split()).tiles
    (0, 1, 2, 3, 4, 5, 6, 7, 8)
    >>> parse_state("2 1 2 3 b".split()).tiles
    (1, 2, 3, 0)
    """
    if not words:
        raise CommandError("expected a board, e.g. 'b12 345 678' or '1 2 3 0', found nothing")
    words = [w.lower() for w in words]
    n = len(words)
    if n >= 2 and all(len(w) == n for w in words):
        cells = [c for w in words for c in w]
    else:
        cells = words
    tiles = []
    for cell in cells:
        if cell == "b":
            tiles.append(0)
        elif cell.isdigit():
            tiles.append(int(cell))
        else:
            raise CommandError(f"expected a tile number or b, found {cell!r}"
                               + (f" in {' '.join(words)!r}" if cells is not words else ""))
    root = _square_root(len(tiles))
    if root is None and _square_root(len(tiles) - 1) == tiles[0] and cells is words:
        root, tiles = tiles[0], tiles[1:]
    if root is None or root < 2:
        raise CommandError(f"expected N*N tiles for some N >= 2 (or N then N*N tiles), "
                           f"found {len(tiles)} values")
    try:
        return Board.from_tiles(tiles, root)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _square_root(count: int) -> int | None:
    root = int(round(count ** 0.5)) if count > 0 else 0
    return root if root * root == count and root > 0 else None


def _positive_int(word: str, what: str, least: int = 1) -> int:
    if not word.isdigit() or int(word) < least:
        kind = "a positive whole number" if least else "a whole number (0 or more)"
        raise CommandError(f"{what}: expected {kind}, found {word!r}")
    return int(word)


def _count(number: int, word: str) -> str:
    """``1 move``, ``2 moves``, ``1,500 nodes``."""
    return f"{number:,} {word}{'' if number == 1 else 's'}"


class Shell:
    """One shell session: the current board, the random source, the node limit and where to print."""

    def __init__(self, out: TextIO, seed: int | None = None) -> None:
        self.out = out
        self.board = Board.goal(3)
        self.rng = random.Random(seed)
        self.max_nodes = DEFAULT_MAX_NODES
        self.commands: dict[str, Callable[[list[str]], None]] = {
            "setstate": self.set_state, "randomizestate": self.randomize_state,
            "printstate": self.print_state, "move": self.move, "solve": self.solve,
            "maxnodes": self.set_max_nodes, "help": self.help,
        }

    def say(self, text: str) -> None:
        self.out.write(text + "\n")

    # -- the commands -------------------------------------------------------------
    def set_state(self, words: list[str]) -> None:
        if not words:
            raise CommandError("setState needs a board, e.g. 'setState b12 345 678' or 'setState 1 2 3 0'")
        try:
            self.board = parse_state(words)
        except CommandError as exc:
            raise CommandError(f"setState: {exc}") from None

    def randomize_state(self, words: list[str]) -> None:
        if len(words) != 1:
            raise CommandError("randomizeState: expected the number of random moves, e.g. 'randomizeState 20'")
        count = _positive_int(words[0], "randomizeState", least=0)
        board = Board.goal(self.board.n)
        for _ in range(count):
            _, board = self.rng.choice(board.successors())
        self.board = board

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
        if kind in ASTAR_NAMES and len(words) == 2 and words[1].lower() in HEURISTIC_NAMES:
            heuristic, title = HEURISTIC_NAMES[words[1].lower()]
            name = f"A* with {words[1].lower()} ({title})"
            result = self._search(name, lambda: solve(self.board, "astar", heuristic, self.max_nodes))
        elif kind == "beam" and len(words) == 2:
            width = _positive_int(words[1], "solve beam")
            name = f"Beam search (width {width})"
            result = self._search(name, lambda: beam_search(self.board, width, self.max_nodes))
            if result.outcome == BEAM_EMPTY:
                self.say(f"{name} failed: the beam emptied after {result.levels} levels without reaching "
                         f"the goal ({_count(result.expanded, 'node')} expanded).")
                return
            if result.outcome == BEAM_UNSOLVABLE:
                result = SearchResult(None, 0, 0, 0.0, "beam", "manhattan")
        else:
            raise CommandError("solve: expected 'solve A-star h1', 'solve A-star h2' or 'solve beam K'")
        if result.path is None:
            self.say(f"{UNSOLVABLE}: this board cannot reach the goal.")
            return
        self.say(f"{name}: {_count(result.moves, 'move')}, {_count(result.expanded, 'node')} expanded, "
                 f"{result.generated:,} generated.")
        for number, (move, board) in enumerate(zip(result.move_list(), result.path[1:]), start=1):
            self.say(f"{number:>3}. {move.label}")
            self.say(format_state(board, indent="     "))

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


def read_commands(path: str) -> list[str]:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise MissingInputError(path, None, "a command file", "no such file") from None
    except OSError as exc:
        raise MissingInputError(path, None, "a readable command file", exc.strerror or str(exc)) from None
    return decode_text(data, path).splitlines()


@click.command("shell")
@click.argument("command_file", required=False, type=click.Path(dir_okay=False))
@click.option("--seed", type=int, default=None, help="Seed for randomizeState, for repeatable sessions.")
def shell(command_file: str | None, seed: int | None) -> int:
    """Run COMMAND_FILE's puzzle commands, then prompt '> ' until 'exit' or end of input.

    Commands (case-insensitive): setState, randomizeState N, printState,
    move up|down|left|right, solve A-star h1|h2, solve beam K, maxNodes N, help, exit.
    Type 'help' in the shell for details.
    """
    session = Shell(sys.stdout, seed)
    if command_file is not None and not session.run_script(read_commands(command_file), command_file):
        return 0
    session.interact(sys.stdin)
    return 0
