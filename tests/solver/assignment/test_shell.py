"""The command shell: the full transcript (golden), the state forms, the prompt, the seed, bad input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.board import Board
from solver.cli import entry, main
from solver.assignment.shell import CommandError, parse_state
from tests.support import check_golden

DATA = Path(__file__).resolve().parent.parent / "data" / "shell"


def run_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str | None, stdin: str = "",
              seed: int = 7) -> str:
    """The shell's whole output for a command file (run from its folder, so messages name it briefly)."""
    monkeypatch.chdir(tmp_path)
    args = ["shell", "--seed", str(seed)]
    if script is not None:
        (tmp_path / "commands.txt").write_text(script, encoding="utf-8")
        args.insert(1, "commands.txt")
    result = CliRunner().invoke(main, args, input=stdin)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("script", sorted(p.name for p in DATA.glob("*.txt")))
def test_command_files_give_the_expected_transcripts(script: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     update_golden: bool) -> None:
    """Each command file in data/shell/ runs (seed 7, empty input) into the transcript beside it."""
    shutil.copy(DATA / script, tmp_path / script)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["shell", script, "--seed", "7"], input="")
    assert result.exit_code == 0
    check_golden(DATA / script.replace(".txt", ".expected"), result.output, update_golden)


def test_exit_in_a_command_file_ends_the_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "printState\nexit\nmove up\n", stdin="printState\n")
    assert output == "> printState\n1 2 3\n4 5 6\n7 8 b\n> exit\n"  # no prompt: stdin is not read


def test_prompts_after_the_file_until_end_of_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, "setState 1 2 3 0 4 5 6 7 8\n",
                       stdin="move right\nPRINTSTATE\nbogus\n")
    assert output == ("> setState 1 2 3 0 4 5 6 7 8\n"
                      "> > 1 2 3\n4 b 5\n6 7 8\n"
                      "> unknown command 'bogus'; type 'help' for the list\n"
                      "> \n")


def test_exit_at_the_prompt_stops_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = run_shell(tmp_path, monkeypatch, None, stdin="printState\nEXIT\nprintState\n")
    assert output == "> 1 2 3\n4 5 6\n7 8 b\n> "


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
    assert Board.from_tiles([0 if t == "b" else int(t) for row in board for t in row.split()]).is_solvable()


@pytest.mark.parametrize(("words", "tiles"), [
    ("b12 345 678", (0, 1, 2, 3, 4, 5, 6, 7, 8)),
    ("B12 345 678", (0, 1, 2, 3, 4, 5, 6, 7, 8)),
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
    ("1 2 three 0", "expected a tile number or b, found 'three'"),
    ("0", "found 1 values"),
])
def test_set_state_refuses_bad_boards(words: str, message: str) -> None:
    with pytest.raises(CommandError) as caught:
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
