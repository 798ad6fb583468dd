"""`python -m solver`: golden outputs, every bad input, atomic output, real data."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solver.board import Board
from solver.cli import entry
from solver.formats import format_puzzle, parse_solution
from tests.solver.helpers import assert_legal_path
from tests.support import check_golden, shared_data

DATA = Path(__file__).resolve().parent.parent / "data"
BAD = sorted(p.name for p in (DATA / "bad").glob("*.txt"))
GOLDEN = sorted(p.stem for p in (DATA / "golden").glob("*.in"))


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_outputs(name, tmp_path, update_golden):
    out = tmp_path / "out.txt"
    assert entry(["solve", str(DATA / "golden" / f"{name}.in"), "-o", str(out), "-a", "astar"]) == 0
    check_golden(DATA / "golden" / f"{name}.out", out.read_text(), update_golden)


@pytest.mark.parametrize("name", BAD)
def test_bad_input_one_line_distinct_code_no_output(name, tmp_path, monkeypatch, capsys, update_golden):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "input.txt").write_bytes((DATA / "bad" / name).read_bytes())
    (tmp_path / "output.txt").write_text("Minimum number of moves = 0\nstale answer from an earlier run\n")
    code = entry([])
    err = capsys.readouterr().err
    assert code == int(name.split("-")[0])
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.match(r"solver: input\.txt(:\d+)?: expected .+, found .+", err)
    assert not (tmp_path / "output.txt").exists(), "a stale output.txt would look like this run's answer"
    assert [p.name for p in tmp_path.iterdir()] == ["input.txt"], "no temp files left behind"
    check_golden(DATA / "bad" / name.replace(".txt", ".err"), err, update_golden)


def test_exit_codes_are_distinct_and_documented():
    codes = {int(name.split("-")[0]) for name in BAD} | {3}
    assert codes == set(range(3, 11))
    help_text = subprocess.run([sys.executable, "-m", "solver", "--help"], capture_output=True, text=True,
                               check=False).stdout
    for code in sorted(codes) + [11, 12, 130]:
        assert re.search(rf"^\s+{code}\s+\w", help_text, re.M), code


def test_missing_input_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert entry([]) == 3
    assert capsys.readouterr().err == "solver: input.txt: expected a puzzle file, found no such file\n"


def test_real_process_no_traceback_on_binary_input(tmp_path):
    (tmp_path / "input.txt").write_bytes(bytes(range(256)) * 4)
    run = subprocess.run([sys.executable, "-m", "solver"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 5 and "Traceback" not in run.stderr and run.stderr.count("\n") == 1
    assert not (tmp_path / "output.txt").exists()


def test_default_paths_and_stdin(tmp_path):
    puzzle = "3\n1 2 3\n4 0 6\n7 5 8\n"
    (tmp_path / "input.txt").write_text(puzzle)
    run = subprocess.run([sys.executable, "-m", "solver"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout == "" and run.stderr == ""
    written = (tmp_path / "output.txt").read_text()
    assert written.startswith("Minimum number of moves = 2\n3\n1 2 3\n4 0 6\n7 5 8\n\n")
    piped = subprocess.run([sys.executable, "-m", "solver", "-"], input=puzzle, capture_output=True, text=True,
                           check=False)
    assert piped.stdout == written


def test_interrupted_run_leaves_no_output(tmp_path, monkeypatch, capsys):
    import solver.solve

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(solver.solve, "solve", interrupted)
    (tmp_path / "input.txt").write_text("2\n1 2\n0 3\n")
    (tmp_path / "output.txt").write_text("old\n")
    assert entry([]) == 130
    assert not (tmp_path / "output.txt").exists()


def test_node_limit_exit_code(tmp_path, capsys):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("3\n8 6 7\n2 5 4\n3 0 1\n")
    assert entry(["solve", str(puzzle), "-a", "astar", "-H", "hamming", "--node-limit", "10"]) == 11
    assert "node limit 10" in capsys.readouterr().err


def test_unwritable_output(tmp_path, capsys):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2\n1 2\n0 3\n")
    assert entry(["solve", str(puzzle), "-o", str(tmp_path / "missing-dir" / "out.txt")]) == 12
    assert "cannot write" in capsys.readouterr().err


def test_stats_go_to_stderr(tmp_path, capsys):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2\n1 2\n0 3\n")
    assert entry(["solve", str(puzzle), "--stats"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Minimum number of moves = 1")
    assert re.search(r"moves=1 expanded=\d+ generated=\d+ seconds=", captured.err)


def solve_via_cli(board: Board, tmp_path: Path, capsys) -> tuple[int | None, tuple[Board, ...]]:
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text(format_puzzle(board))
    assert entry(["solve", str(puzzle)]) == 0
    parsed = parse_solution(capsys.readouterr().out, n=board.n)
    assert parsed.notes == (), "the solver must print the exact format"
    return parsed.moves, parsed.boards


def test_random_2x2_and_3x3_boards_solve_optimally(tmp_path, capsys, table2, table3):
    rng = random.Random(99)
    for n, table, count in ((2, table2, 12), (3, table3, 60)):
        for _ in range(count):
            tiles = list(range(n * n))
            rng.shuffle(tiles)
            board = Board(tuple(tiles), n)
            moves, path = solve_via_cli(board, tmp_path, capsys)
            if tuple(tiles) in table:
                assert moves == table[board.tiles] == len(path) - 1
                assert_legal_path(path, board)
            else:
                assert path == () and moves is None


def test_4x4_scrambles_up_to_30_moves(tmp_path, capsys):
    from solver.search.astar import astar

    rng = random.Random(16)
    for length in (5, 12, 20, 26, 30):
        board = Board.goal(4)
        for _ in range(length):
            board = rng.choice(board.neighbors())
        moves, path = solve_via_cli(board, tmp_path, capsys)
        assert_legal_path(path, board)
        assert moves == astar(board, "linear-conflict").moves <= length


def test_princeton_files_up_to_3x3_solve_to_the_count_in_their_name(tmp_path, capsys):
    folder = shared_data("external-data", "princeton")
    checked = 0
    for path in sorted(folder.glob("puzzle*.txt")):
        text = path.read_text()
        if int(text.split()[0]) > 3:
            continue
        assert entry(["solve", str(path)]) == 0
        parsed = parse_solution(capsys.readouterr().out)
        label = re.search(r"-(\d+|unsolvable\d?)\.txt$|puzzle(\d+)\.txt$", path.name)
        expected = label.group(1) or label.group(2)
        if expected.startswith("unsolvable"):
            assert parsed.unsolvable, path.name
        else:
            assert parsed.moves == int(expected), path.name
        checked += 1
    assert checked == 67  # 12 files of 2×2 and 55 of 3×3
