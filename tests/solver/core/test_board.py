"""The board model: moves, heuristics, solvability, twin, goal conventions."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.board import Board, Move
from solver.formats import format_board
from solver.tiles import manhattan_direct


def permutation_parity_solvable(board: Board) -> bool:
    """Independent rule: permutation parity (blank included) equals the blank's taxicab parity."""
    n = board.n
    goal = Board.goal(n).tiles
    where = {t: i for i, t in enumerate(board.tiles)}
    perm = [where[t] for t in goal]
    seen, transpositions = set(), 0
    for i in range(len(perm)):
        j, length = i, 0
        while j not in seen:
            seen.add(j)
            j = perm[j]
            length += 1
        transpositions += max(length - 1, 0)
    blank = board.blank
    taxicab = abs(blank // n - (n - 1)) + abs(blank % n - (n - 1))
    return transpositions % 2 == taxicab % 2


def test_move_convention_matches_the_docstring():
    board = Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])
    assert board.apply(Move.DOWN).tiles == (1, 2, 3, 4, 5, 6, 7, 0, 8)
    assert board.apply(Move.UP).tiles == (1, 0, 3, 4, 2, 6, 7, 5, 8)
    assert board.apply(Move.LEFT).tiles == (1, 2, 3, 0, 4, 6, 7, 5, 8)
    assert board.apply(Move.RIGHT).tiles == (1, 2, 3, 4, 6, 0, 7, 5, 8)


def test_illegal_move_is_refused():
    with pytest.raises(ValueError, match="cannot move the blank down"):
        Board.goal(3).apply(Move.DOWN)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_successors_are_one_move_and_reversible(n):
    rng = random.Random(n)
    tiles = list(range(n * n))
    rng.shuffle(tiles)
    board = Board.from_tiles(tiles)
    for move, child in board.successors():
        assert board.move_to(child) is move
        assert child.apply(move.opposite) == board
    corner_counts = {len(Board.goal(n).successors())}
    assert corner_counts == {2}


def test_solvability_rule_equals_reachability_on_2x2_and_3x3(table2, table3):
    for n, table in ((2, table2), (3, table3)):
        for perm in itertools.permutations(range(n * n)):
            board = Board(perm, n)
            assert board.is_solvable() == (perm in table), perm
    assert len(table2) == 12 and len(table3) == 181_440


@settings(max_examples=300, deadline=None)
@given(st.integers(4, 7).flatmap(lambda n: st.permutations(list(range(n * n))).map(lambda p: Board(tuple(p), n))))
def test_solvability_rule_agrees_with_permutation_parity_for_larger_boards(board):
    assert board.is_solvable() == permutation_parity_solvable(board)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.permutations(list(range(n * n))).map(lambda p: Board(tuple(p), n))))
def test_exactly_one_of_board_and_twin_is_solvable(board):
    assert board.is_solvable() != board.twin().is_solvable()
    assert board.twin().blank == board.blank


def test_heuristics_on_a_known_board():
    board = Board.from_tiles([8, 1, 3, 4, 0, 2, 7, 6, 5])  # Princeton's example
    assert board.hamming() == 5
    assert board.manhattan() == 10
    conflict = Board.from_tiles([2, 1, 3, 4, 5, 6, 7, 8, 0])  # 2 and 1 swapped in their goal row
    assert conflict.manhattan() == 2 and conflict.linear_conflict() == 4


def test_heuristics_are_admissible_and_ordered_on_every_3x3_board(table3):
    for tiles, distance in itertools.islice(table3.items(), 0, None, 7):
        board = Board(tiles, 3)
        assert board.hamming() <= board.manhattan() <= board.linear_conflict() <= distance


def test_blank_first_goal_maps_onto_the_standard_goal(table3):
    blank_first = Board.goal(3, blank_first=True)
    assert blank_first.standardized(blank_first=True) == Board.goal(3)
    rng = random.Random(7)
    board = blank_first
    for _ in range(40):  # a random walk from the blank-first goal
        board = rng.choice(board.neighbors())
    mapped = board.standardized(blank_first=True)
    assert mapped.tiles in table3
    for child in board.neighbors():  # moves stay moves under the mapping
        assert mapped.move_to(child.standardized(blank_first=True)) is not None


@pytest.mark.parametrize("tiles, message", [
    ([1, 2, 3], "needs 4 tiles"),
    ([0], "at least 2"),
    ([1, 1, 2, 0], "appears twice"),
    ([1, 2, 3, 9], "out of range"),
])
def test_from_tiles_refuses_bad_boards(tiles, message):
    with pytest.raises(ValueError, match=message):
        Board.from_tiles(tiles, 2 if len(tiles) != 1 else 1)


def test_str_is_princetons_to_string_and_the_files_keep_their_format():
    assert str(Board.goal(3)) == "3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n"
    assert str(Board.goal(11)).splitlines()[11] == " ".join(f"{t:2d}" for t in range(111, 121)) + "  0 "
    assert format_board(Board.goal(3)) == "3\n1 2 3\n4 5 6\n7 8 0"


def independent_manhattan(board: Board) -> int:
    n = board.n
    return sum(abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n) for i, t in enumerate(board.tiles) if t)


def independent_inversions(board: Board) -> int:
    seq = [t for t in board.tiles if t]
    return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.permutations(list(range(n * n))).map(lambda p: Board(tuple(p), n))))
def test_heuristics_moves_and_inversions_agree_with_plain_formulas_below_and_above_the_small_sizes(board):
    # Sizes up to SMALL_N read lookup tables, larger ones compute directly: both must give the same answers.
    n = board.n
    assert board.manhattan() == independent_manhattan(board) == manhattan_direct(board.tiles, n)
    assert board.hamming() == sum(1 for i, t in enumerate(board.tiles) if t and t != i + 1)
    assert board.inversions() == independent_inversions(board)
    assert board.is_solvable() == permutation_parity_solvable(board)
    blank_row, blank_col = divmod(board.blank, n)
    expected = [move for move in Move if 0 <= blank_row + move.value[0] < n and 0 <= blank_col + move.value[1] < n]
    assert [move for move, _ in board.successors()] == expected
    assert board.is_goal() == (board.tiles == Board.goal(n).tiles)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.permutations(list(range(n * n))).map(lambda p: Board(tuple(p), n))))
def test_twin_swaps_two_adjacent_tiles_of_one_row_never_the_blank(board):
    twin = board.twin()
    changed = [i for i, (a, b) in enumerate(zip(board.tiles, twin.tiles)) if a != b]
    assert len(changed) == 2
    first, second = changed
    assert second == first + 1 and first // board.n == second // board.n  # side by side in one row
    assert board.tiles[first] and board.tiles[second]
    assert twin.twin() == board
