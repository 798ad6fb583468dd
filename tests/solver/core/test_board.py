"""The board model: moves, heuristics, solvability, twin, goal conventions."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.board import Board, Move


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


def test_str_is_the_output_format():
    assert str(Board.goal(3)) == "3\n1 2 3\n4 5 6\n7 8 0"
