"""The command shell: the full transcript (golden), the state forms, the prompt, the seed, bad input."""

from __future__ import annotations

import random
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.assignment.states import StateError, parse_state
from solver.board import Board
from solver.cli import entry, main
from tests.support import check_golden

DATA = Path(__file__).resolve().parent.parent / "data" / "shell"


def run_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str | None, stdin: str = "",
              seed: int = 7, options: list[str] | None = None) -> str:
    """The shell's whole output for a command file (run from its folder, so messages name it briefly)."""
    monkeypatch.chdir(tmp_path)
    args = ["shell", "--seed", str(seed), *(options or [])]
    if script is not None:
        (tmp_path / "commands.txt").write_text(script, encoding="utf-8")
        args.insert(1, "commands.txt")
    result = CliRunner().invoke(main, args, input=stdin)
    assert result.exit_code == 0, result.output
    return result.output


OPTIONS = "# shell options:"


@pytest.mark.parametrize("script", sorted(p.name for p in DATA.glob("*.txt")))
def test_command_files_give_the_expected_transcripts(script: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     update_golden: bool) -> None:
    """Each command file in data/shell/ runs (seed 7, empty input, and the options its first line
    names after '# shell options:') into the transcript beside it."""
    shutil.copy(DATA / script, tmp_path / script)
    first = (DATA / script).read_text(encoding="utf-8").splitlines()[0]
    options = first.removeprefix(OPTIONS).split() if first.startswith(OPTIONS) else []
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["shell", script, "--seed", "7", *options], input="")
    assert result.exit_code == 0
    check_golden(DATA / script.replace(".txt", ".expected"), result.output, update_golden)


def test_the_sheets_command_file_gives_the_sheets_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The goal is the sheet's b12 345 678: its first puzzle takes 4 moves (18 toward 123 456 78b).
    output = run_shell(tmp_path, monkeypatch, (DATA / "sheet-commands.txt").read_text(encoding="utf-8"))
    first = output.split("> solve A-star h1\n")[1]
    assert first.startswith("A* with h1 (misplaced tiles): 4 moves, ")
    assert first.split("\n")[1] == "Moves: down left left up"
    assert output.split("> printStats\n")[1].startswith("3 1 b\n4 5 2\n6 7 8\n> ")
    assert "solve A-star h2\nA* with h2 (Manhattan distance): 4 moves," in output
    assert "> setState b12 345 678\n> solve A-star h1\nA* with h1 (misplaced tiles): 0 moves," in output
    solved = run_shell(tmp_path, monkeypatch, "setState b12 345 678\nsolve a-star h2\n")
    assert "A* with h2 (Manhattan distance): 0 moves, " in solved  # the sheet's goal is solved as it stands
    other = run_shell(tmp_path, monkeypatch, "setState 31b 452 678\nsolve A-star h2\n",
                      options=["--goal", "blank-last"])
    assert "A* with h2 (Manhattan distance): 18 moves, " in other


def test_solve_prints_the_start_then_each_steps_number_direction_and_state(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "setState 1b2 345 678\nsolve A-star h2\n")
    assert output == ("> setState 1b2 345 678\n> solve A-star h2\n"
                      "A* with h2 (Manhattan distance): 1 move, 1 node expanded, 3 generated.\n"
                      "Moves: left\n"
                      "Start:\n     1 b 2\n     3 4 5\n     6 7 8\n"
                      "  1. left\n     b 1 2\n     3 4 5\n     6 7 8\n> \n")


def test_move_and_randomize_state_print_the_new_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "move right\nmove down\nrandomizeState 0\n")
    assert output == ("> move right\n1 b 2\n3 4 5\n6 7 8\n> move down\n1 4 2\n3 b 5\n6 7 8\n"
                      "> randomizeState 0\nb 1 2\n3 4 5\n6 7 8\n> \n")


@pytest.mark.parametrize("goal", ["bogus", "1b2 345 678"])
def test_an_unknown_goal_is_a_usage_error(goal: str) -> None:
    result = CliRunner().invoke(main, ["shell", "--goal", goal], input="")
    assert result.exit_code == 2
    assert "expected blank-first (b12 345 678, the command sheet's goal) or blank-last" in result.output


def test_help_says_what_beam_k_is() -> None:
    result = CliRunner().invoke(main, ["shell", "--help"])
    assert "local beam search with K states" in " ".join(result.output.split())
    assert "keeps the K best unseen successors" in " ".join(result.output.split())


def test_exit_in_a_command_file_ends_the_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "printState\nexit\nmove up\n", stdin="printState\n")
    assert output == "> printState\nb 1 2\n3 4 5\n6 7 8\n> exit\n"  # no prompt: stdin is not read


def test_prompts_after_the_file_until_end_of_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "setState 1 2 3 0 4 5 6 7 8\n",
                       stdin="move right\nPRINTSTATE\nbogus\n")
    assert output == ("> setState 1 2 3 0 4 5 6 7 8\n"
                      "> 1 2 3\n4 b 5\n6 7 8\n> 1 2 3\n4 b 5\n6 7 8\n"
                      "> unknown command 'bogus'; type 'help' for the list\n"
                      "> \n")


def test_exit_at_the_prompt_stops_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, None, stdin="printState\nEXIT\nprintState\n")
    assert output == "> b 1 2\n3 4 5\n6 7 8\n> "


def test_the_sheets_seeded_transcript_solves_one_puzzle_four_ways(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Fed verbatim, without --seed: the four randomizeState 20 give one board, both A* searches find its
    optimal length (the exact table's), and beam search finds a solution no shorter."""
    from solver.search.exact import solve_exact

    monkeypatch.chdir(tmp_path)
    script = DATA / "sheet-one-puzzle-four-ways.txt"
    output = CliRunner().invoke(main, ["shell", str(script)], input="").output
    blocks = output.split("> randomizeState 20\n")[1:]
    assert len(blocks) == 4
    boards = {block.split("> ")[0] for block in blocks}
    assert len(boards) == 1, boards
    [shown] = boards
    board = parse_state(shown.split())
    assert board.standardized(blank_first=True).is_solvable() and not board.standardized(blank_first=True).is_goal()
    optimal = solve_exact(board.standardized(blank_first=True)).moves
    lengths = [int(block.split(": ", 1)[1].split(" move")[0]) for block in blocks]
    assert lengths[:2] == [optimal, optimal] and all(length >= optimal for length in lengths[2:]), lengths
    assert all(f"Start:\n{textwrap.indent(shown.rstrip(), '     ')}\n" in block for block in blocks)
    again = CliRunner().invoke(main, ["shell", str(script)], input="").output
    assert again == output  # and the same in the next session


@pytest.mark.parametrize("n", [2, 3, 4])
def test_randomize_state_never_gives_the_goal(n: int) -> None:
    from solver.assignment.shell import random_walk

    goal = Board.goal(n)
    for count in range(1, 61):
        for seed in range(20):
            board = random_walk(goal, count, random.Random(seed))
            assert not board.is_goal() and board.is_solvable(), (count, seed)
    # Two moves that do not undo each other leave the board two moves away (3x3 and up).
    if n > 2:
        assert all(random_walk(goal, 2, random.Random(s)).manhattan() == 2 for s in range(50))


def test_the_same_n_gives_the_same_board_and_another_n_another(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "randomizeState 9\nmove left\nrandomizeState 9\nrandomizeState 11\n")
    first, second, other = (b.split("> ")[0] for b in output.split("> randomizeState ")[1:])
    assert first == second and first.split("\n", 1)[1] != other.split("\n", 1)[1]


@pytest.mark.parametrize(("seed", "other"), [(1, 2), (7, 8)])
def test_randomize_state_is_repeatable_with_a_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   seed: int, other: int) -> None:
    script = "randomizeState 30\nprintState\nsolve A-star h2\n"
    first = run_shell(tmp_path, monkeypatch, script, seed=seed)
    assert first == run_shell(tmp_path, monkeypatch, script, seed=seed)
    assert first != run_shell(tmp_path, monkeypatch, script, seed=other)
    assert "A* with h2 (Manhattan distance):" in first  # a random walk from the goal stays solvable


def test_randomize_state_keeps_the_board_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "setState 4 " + " ".join(map(str, Board.goal(4).tiles))
                       + "\nrandomizeState 3\nprintState\n")
    board = output.split("> printState\n")[1].removesuffix("> \n").splitlines()
    assert len(board) == 4 and all(len(row.split()) == 4 for row in board)
    shown = Board.from_tiles([0 if t == "b" else int(t) for row in board for t in row.split()])
    assert shown.standardized(blank_first=True).is_solvable()  # it can reach the sheet's goal


@pytest.mark.parametrize(("words", "tiles"), [
    ("b12 345 678", (0, 1, 2, 3, 4, 5, 6, 7, 8)),
    ("B12 345 678", (0, 1, 2, 3, 4, 5, 6, 7, 8)),
    ('"b12 345 678"', (0, 1, 2, 3, 4, 5, 6, 7, 8)),
    ("“1b2 345 678”", (1, 0, 2, 3, 4, 5, 6, 7, 8)),
    ("012 345 678", (0, 1, 2, 3, 4, 5, 6, 7, 8)),
    ("1b 23", (1, 0, 2, 3)),
    ("1 2 3 4 5 6 7 8 0", (1, 2, 3, 4, 5, 6, 7, 8, 0)),
    ("3 1 2 3 4 5 6 7 8 0", (1, 2, 3, 4, 5, 6, 7, 8, 0)),
    ("1 2 3 b", (1, 2, 3, 0)),
    ("4 " + " ".join(map(str, range(16))), tuple(range(16))),
    (" ".join(map(str, range(25))), tuple(range(25))),
])
def test_set_state_forms(words: str, tiles: tuple[int, ...]) -> None:
    assert parse_state(words.split()).tiles == tiles


@pytest.mark.parametrize(("words", "message"), [
    ("", "expected a board, e.g. 'b12 345 678' or '1 2 3 0', found nothing"),
    ("1 2 3", "expected N*N tiles for some N >= 2 (or N then N*N tiles), found 3 values"),
    ("1 2 3 4 5", "found 5 values"),
    ("4 1 2 3 0", "found 5 values"),
    ("1 1 2 3", "tile 1 appears twice"),
    ("1 2 3 9", "tile 9 is out of range 0..3"),
    ("b12 345 67x", "expected a tile number or b, found 'x' in 'b12 345 67x'"),
    ("b12 345 67", "expected 3 rows of 3 characters (one per tile, b for the blank), e.g. 'b12 345 678'; "
                   "row 3 '67' has 2 characters"),
    ("012 345 6789", "row 3 '6789' has 4 characters"),
    ("b1 2", "expected 2 rows of 2 characters"),
    ("b123 456 78", "row 1 'b123' has 4 characters"),
    ("1 2 three 0", "expected a tile number or b, found 'three'"),
    ("0", "found 1 values"),
])
def test_set_state_refuses_bad_boards(words: str, message: str) -> None:
    with pytest.raises(StateError) as caught:
        parse_state(words.split())
    assert message in str(caught.value)


def test_a_missing_command_file_is_one_message_and_exit_3(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code = entry(["shell", str(tmp_path / "nope.txt")])
    assert code == 3
    assert capsys.readouterr().err == f"solver: {tmp_path / 'nope.txt'}: expected a command file, found no such file\n"


def test_a_binary_command_file_is_refused_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cmds.bin").write_bytes(b"printState\n\x00\x01")
    assert entry(["shell", str(tmp_path / "cmds.bin")]) == 5
    assert ":2: expected text, found a NUL byte" in capsys.readouterr().err


def test_a_board_that_cannot_reach_the_sheets_goal_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 1 and 2 swapped in b12 345 678: the other parity class, for A* and beam search alike.
    output = run_shell(tmp_path, monkeypatch, "setState b21 345 678\nsolve A-star h1\nsolve beam 5\n")
    assert output.count("No solution possible: this board cannot reach the goal.\n") == 2
    # ... while the other goal, 123 456 78b, is 22 moves from the sheet's.
    assert "A* with h2 (Manhattan distance): 22 moves, " in run_shell(tmp_path, monkeypatch,
                                                                     "setState 123 456 78b\nsolve A-star h2\n")
