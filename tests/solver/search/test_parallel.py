"""Threaded IDA*: any number of threads gives the sequential path, counts and node-limit outcome."""

from __future__ import annotations

import random

import pytest

from solver.board import Board
from solver.errors import SearchLimitError
from solver.search import parallel
from solver.search.idastar import idastar, run
from solver.search.pdb.database import pdb_heuristic
from tests.solver.helpers import KORF_SAMPLE, assert_legal_path


@pytest.fixture
def split_everything(monkeypatch):
    """Share even tiny iterations, over few entries, so every path through the split is taken."""
    monkeypatch.setattr(parallel, "SPLIT_FROM", 1)
    monkeypatch.setattr(parallel, "ENTRIES_PER_THREAD", 3)


def walk(n: int, steps: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board.goal(n)
    for _ in range(steps):
        board = rng.choice(board.neighbors())
    return board


WALKS = [walk(4, steps, seed) for seed, steps in enumerate([1, 2, 5, 9, 14, 20, 30, 45, 60, 80])]


def summary(result):
    return result.path, result.moves, result.expanded, result.generated


@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflict"])
def test_threads_give_the_sequential_answer_node_for_node(split_everything, heuristic):
    for board in WALKS:
        alone = idastar(board, heuristic, threads=1)
        assert_legal_path(alone.path, board)
        for threads in (2, 3):
            assert summary(idastar(board, heuristic, threads=threads)) == summary(alone), board


def test_more_threads_than_the_entry_buffer_holds_still_split(monkeypatch):
    # wanting more entries than fit once made the split depth go up and down for ever
    monkeypatch.setattr(parallel, "SPLIT_FROM", 1)
    monkeypatch.setattr(parallel, "MAX_ENTRIES", 16)
    monkeypatch.setattr(parallel, "ENTRIES_PER_THREAD", 8)
    board = walk(4, 200, 8)  # 42 moves: bounds far deeper than the split
    alone = idastar(board, "linear-conflict", threads=1)
    assert summary(idastar(board, "linear-conflict", threads=3)) == summary(alone)


def test_pattern_database_search_is_the_same_with_threads(pdb_cache, split_everything):
    heuristic = pdb_heuristic(4)
    for line in KORF_SAMPLE:
        length, *tiles = map(int, line.split())
        board = Board.from_tiles(tiles)
        alone = run(board, heuristic, "pdb", threads=1)
        assert alone.moves == length
        assert summary(run(board, heuristic, "pdb", threads=2)) == summary(alone)


def test_default_splitting_is_exercised_on_a_big_search():
    board = walk(4, 200, 13)  # 1.4 M nodes: its last iterations are far past SPLIT_FROM
    alone = idastar(board, "linear-conflict", threads=1)
    assert alone.expanded > 3 * parallel.SPLIT_FROM
    assert summary(idastar(board, "linear-conflict", threads=2)) == summary(alone)


@pytest.mark.parametrize("limit", [5, 1_000, 50_000, 100_000])
def test_the_node_limit_stops_at_the_same_place_with_threads(split_everything, limit):
    board = walk(4, 200, 8)  # 100,536 nodes with linear conflict
    outcomes = []
    for threads in (1, 2, 3):
        with pytest.raises(SearchLimitError) as info:
            idastar(board, "linear-conflict", node_limit=limit, threads=threads)
        outcomes.append((info.value.expanded, info.value.bound))
    assert outcomes[0] == (limit + 1, outcomes[0][1]) and outcomes.count(outcomes[0]) == 3


def test_a_limit_the_search_stays_within_is_no_error_with_threads(split_everything):
    board = WALKS[-2]
    needed = idastar(board, "manhattan", threads=1).expanded
    assert summary(idastar(board, "manhattan", node_limit=needed, threads=2)) == \
        summary(idastar(board, "manhattan", threads=1))
    with pytest.raises(SearchLimitError):
        idastar(board, "manhattan", node_limit=needed - 1, threads=2)


def test_thread_count_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("NPUZZLE_THREADS", "3")
    assert parallel.threads_available() == 3
    monkeypatch.setenv("NPUZZLE_THREADS", "lots")
    assert parallel.threads_available() >= 1
