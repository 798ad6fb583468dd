"""The file formats: puzzle parsing, solution formatting, and the lenient solution parser."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.board import Board
from solver.errors import SolutionFormatError
from solver.formats import format_solution, parse_puzzle, parse_solution
from tests.support import check_golden, shared_data

DATA = Path(__file__).resolve().parent.parent / "data" / "solutions"


@st.composite
def paths(draw):
    """A legal path of boards: a random walk that never revisits a board."""
    n = draw(st.integers(2, 5))
    board = Board.goal(n)
    path, seen = [board], {board}
    for _step in range(draw(st.integers(0, 25))):
        options = [b for b in board.neighbors() if b not in seen]
        if not options:
            break
        board = options[draw(st.integers(0, len(options) - 1))]
        path.append(board)
        seen.add(board)
    return list(reversed(path))


@settings(max_examples=200, deadline=None)
@given(paths())
def test_format_then_parse_gives_the_path_back(path):
    text = format_solution(path)
    parsed = parse_solution(text)
    assert parsed.boards == tuple(path)
    assert parsed.moves == len(path) - 1
    assert parsed.notes == () and not parsed.unsolvable
    assert parse_puzzle(str(path[0])) == path[0]


def test_unsolvable_round_trip():
    assert format_solution(None) == "No solution possible\n"
    parsed = parse_solution(format_solution(None))
    assert parsed.unsolvable and parsed.boards == () and parsed.moves is None and parsed.notes == ()


def test_format_is_exactly_the_prescribed_layout():
    path = [Board.from_tiles([1, 2, 3, 0, 4, 6, 7, 5, 8]), Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])]
    assert format_solution(path) == ("Minimum number of moves = 1\n3\n1 2 3\n0 4 6\n7 5 8\n\n"
                                     "3\n1 2 3\n4 0 6\n7 5 8\n\n")


def summarize(parsed) -> str:
    lines = [f"moves: {parsed.moves} (line {parsed.header_line})",
             f"boards: {len(parsed.boards)} starting on lines {list(parsed.board_lines)}",
             f"unsolvable: {parsed.unsolvable} (line {parsed.unsolvable_line})"]
    lines += [f"note line {note.line}: {note.message}" for note in parsed.notes]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(p.stem for p in (DATA / "good").glob("*.txt")))
def test_lenient_parser_reads_real_variants(name, update_golden):
    parsed = parse_solution((DATA / "good" / f"{name}.txt").read_bytes(), f"{name}.txt", n=3)
    if not name.startswith("unsolvable"):
        assert parsed.moves == 3 and len(parsed.boards) == 4 and parsed.boards[-1].is_goal()
    check_golden(DATA / "good" / f"{name}.parsed", summarize(parsed), update_golden)


@pytest.mark.parametrize("name", sorted(p.stem for p in (DATA / "bad").glob("*.txt")))
def test_unreadable_solutions_name_the_line(name, update_golden):
    with pytest.raises(SolutionFormatError) as info:
        parse_solution((DATA / "bad" / f"{name}.txt").read_bytes(), f"{name}.txt")
    message = str(info.value)
    assert message.startswith(f"{name}.txt") and "expected" in message and "found" in message
    check_golden(DATA / "bad" / f"{name}.err", message + "\n", update_golden)


@pytest.mark.parametrize("name, moves", [("p3io/output1.txt", 22), ("p3io/output2.txt", 23),
                                         ("p3io/output3.txt", 0), ("sample/output2.txt", 20),
                                         ("sample/output3.txt", 24), ("sample/output4.txt", 18)])
def test_course_expected_outputs_parse(name, moves):
    parsed = parse_solution(shared_data("external-data", "cmpe160", name).read_bytes(), name)
    assert parsed.moves == moves and len(parsed.boards) == moves + 1 and parsed.boards[-1].is_goal()


def test_course_unsolvable_output_is_recognised():
    parsed = parse_solution(shared_data("external-data", "cmpe160", "sample", "output.txt").read_bytes())
    assert parsed.unsolvable and parsed.moves is None


def test_every_princeton_file_parses():
    folder = shared_data("external-data", "princeton")
    files = sorted(folder.glob("puzzle*.txt"))
    assert len(files) == 152
    for path in files:
        board = parse_puzzle(path.read_bytes(), path.name)
        assert 2 <= board.n <= 10


@pytest.mark.parametrize("wording", ["0 moves: unsolvable", "-1", "Impossible"])
def test_an_unsolvable_wording_is_recognised_whatever_it_starts_with(wording):
    # Rows of digits take a fast path past the wordings; a wording that starts with a digit must not.
    parsed = parse_solution(f"{wording}\n", unsolvable_wordings=(wording,))
    assert parsed.unsolvable and parsed.unsolvable_line == 1


def test_digits_of_other_scripts_read_as_the_pattern_reads_them():
    # "\d" and int() take any decimal digit; the fast path must agree (a superscript is not one).
    parsed = parse_solution("Minimum number of moves = 1\n\n2\n\u0661 2\n3 0\n\n2\n1 2\n0 3\n")
    assert parsed.boards[0].tiles == (1, 2, 3, 0)
    with pytest.raises(SolutionFormatError, match="output:4: expected row 1"):
        parse_solution("Minimum number of moves = 1\n\n2\n1 \u00b2\n3 0\n\n2\n1 2\n0 3\n")
