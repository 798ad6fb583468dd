"""Symmetric views of the 4×4 partition: admissible, refused where they would not be, and read by
the search exactly as the slow Python lookup reads them."""

from __future__ import annotations

import random

import pytest

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search.idastar import run
from solver.search.pdb.database import heuristic_from_tables, pdb_tables
from solver.search.pdb.layout import PARTITIONS, pattern_value, table_bytes
from solver.search.pdb.views import ViewError, seen_board, view_tiles, views_for
from tests.solver.helpers import KORF_SAMPLE, random_solvable

PARTITION = PARTITIONS[4][0]
VIEWS = views_for(4, PARTITION, reflect=True, flipped=True)


@pytest.fixture(scope="module")
def tables(pdb_cache):
    flat, starts = pdb_tables(4)
    return flat, starts, [flat[starts[p]:starts[p] + table_bytes(4, p)] for p in PARTITION]


def view_sum(view, pattern_tables, tiles) -> int:
    """The view's value by the slow path: each pattern's table read on the board as its frame shows it."""
    return sum(pattern_value(4, p, t, seen_board(4, frame, tiles)) for p, t, frame in zip(PARTITION, pattern_tables,
                                                                                           view))


def test_the_4x4_partition_has_two_views_each_covering_every_tile_once():
    assert VIEWS == [("identity",) * 2, ("transpose",) * 2]
    tops = [view_tiles(4, PARTITION, view)[0] for view in VIEWS]
    assert tops == [[1, 2, 3, 4, 5, 6, 7, 8], [1, 5, 9, 13, 2, 6, 10, 14]]  # the tiles playing the top eight


def test_the_7_7_1_before_it_keeps_its_four_views_for_the_benchmarks():
    before = ((1, 2, 3, 4, 5, 6, 7), (9, 10, 11, 12, 13, 14, 15), (8,))
    views = views_for(4, before, reflect=True, flipped=True)
    assert [view_tiles(4, before, view)[2] for view in views] == [[8], [14], [5], [2]]  # each view's lone tile


@pytest.mark.parametrize(("view", "reason"), [
    (("identity", "flip"), "image of the blank's"),           # would move the bottom seven's corner
    (("identity", "turn"), "image of the blank's"),
    (("transpose", "identity"), "do not cover tiles 1..15"),  # patterns overlap
    (("flip", "identity", "flip"), "needs 2 frames"),
    (("mirror", "identity"), "unknown frame"),
])
def test_views_that_would_not_be_admissible_or_additive_are_refused_with_the_reason(view, reason):
    with pytest.raises(ViewError, match=reason):
        view_tiles(4, PARTITION, view)


def test_a_table_searched_from_a_walled_in_corner_is_not_read_where_the_blank_lands_outside_the_walls():
    # tiles 11, 12 and 15 at home wall cell 15 in alone; flipped, the goal's blank lands on cell 12
    with pytest.raises(ViewError, match="outside the region"):
        view_tiles(4, ((11, 12, 15), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14)), ("flip", "identity"))


def test_every_view_is_zero_at_the_goal_and_never_above_the_optimum(tables):
    _, _, pattern_tables = tables
    for view in VIEWS:
        assert view_sum(view, pattern_tables, Board.goal(4).tiles) == 0
    for line in KORF_SAMPLE:
        length, *tiles = map(int, line.split())
        assert all(0 < view_sum(view, pattern_tables, tuple(tiles)) <= length for view in VIEWS)
    rng = random.Random(11)
    for _ in range(60):
        board = Board.goal(4)
        for step in range(1, 40):
            board = rng.choice(board.neighbors())
            assert all(view_sum(view, pattern_tables, board.tiles) <= step for view in VIEWS), (step, board)


def test_a_flipped_view_of_the_top_eight_would_read_what_the_plain_view_reads(tables):
    """Why the 8-7 has no flipped views: admissible, but the table is symmetric under the flip."""
    _, _, pattern_tables = tables
    flipped = [("flip", "identity"), ("turn", "transpose")]
    rng = random.Random(4)
    for _ in range(200):
        board = random_solvable(rng, 4).tiles
        for plain, flip in zip(VIEWS, flipped):
            assert view_sum(flip, pattern_tables, board) == view_sum(plain, pattern_tables, board)


@pytest.mark.parametrize("reflect", [False, True])
def test_the_search_reads_every_view_as_python_does(tables, reflect):
    """A node limit of 0 stops at the root with its bound: Manhattan plus twice the best view's excess."""
    flat, starts, pattern_tables = tables
    heuristic = heuristic_from_tables(4, PARTITIONS[4], flat, starts, reflect=reflect, flipped=True)
    views = VIEWS if reflect else VIEWS[:1]
    rng = random.Random(3)
    boards = [Board.from_tiles([int(t) for t in line.split()[1:]]) for line in KORF_SAMPLE]
    boards += [random_solvable(rng, 4) for _ in range(40)]
    for board in boards:
        with pytest.raises(SearchLimitError) as caught:
            run(board, heuristic, "pdb", node_limit=0, dual=False)  # the board's own root, not its dual's
        assert caught.value.bound == max(view_sum(view, pattern_tables, board.tiles) for view in views)
