"""The redundant routes IDA* skips: each shipped one has a witness, the automaton rejects exactly
the moves that complete one, and skipping them keeps every answer optimal."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.board import Board
from solver.search import move_pruning
from solver.search.heuristic import simple_heuristic
from solver.search.idastar import run
from solver.search.move_pruning import (
    DIRECTIONS,
    automaton,
    effect,
    find_redundant,
    pruning_table,
    read_routes,
    route_order,
)
from solver.search.parallel import kernel_for
from solver.search.pdb.database import pdb_heuristic
from solver.search.status import MAX_DEPTH, NOT_FOUND
from tests.solver.helpers import KORF_SAMPLE, assert_legal_path
from tests.solver.search.test_parallel import WALKS, walk

SHIPPED = read_routes()
ROUTES = {route for route, _ in SHIPPED}


def test_every_shipped_route_has_a_witness_that_does_the_same_within_its_cells():
    assert len(SHIPPED) > 2000 and max(len(r) for r in ROUTES) == move_pruning.MAX_LENGTH
    for route, witness in SHIPPED:
        (done, cells), (w_done, w_cells) = effect(route), effect(witness)
        assert done == w_done and w_cells <= cells and route_order(witness) < route_order(route), (route, witness)


def test_no_shipped_route_holds_another():
    for route in ROUTES:
        inner = {route[i:j] for i in range(len(route)) for j in range(i + 1, len(route) + 1)} - {route}
        assert not inner & ROUTES, route


def test_the_walk_finds_the_shipped_routes():
    # the whole list (12 moves) takes a minute and 2.5 GB to walk; routes of up to ten moves, 4 s
    assert find_redundant(10) == [(r, w) for r, w in SHIPPED if len(r) <= 10]


def test_the_moves_back_and_the_block_rounds_are_redundant():
    assert {"UD", "DU", "LR", "RL"} <= ROUTES
    # six moves round a 2x2 block one way reach what six moves the other way reach
    assert effect("RDLURD")[0] == effect("DRULDR")[0] and ("RDLURD" in ROUTES) != ("DRULDR" in ROUTES)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(4)), min_size=1, max_size=40))
def test_the_automaton_stops_at_the_first_move_completing_a_redundant_route(moves):
    table = pruning_table()
    text = "".join(DIRECTIONS[k] for k in moves)
    first = next((i for i in range(len(text)) if any(text[j:i + 1] in ROUTES for j in range(i + 1))), None)
    state, stopped = 0, None
    for i, k in enumerate(moves):
        state = int(table[state, k])
        if state < 0:
            stopped = i
            break
    assert stopped == first


def test_an_automaton_over_no_routes_but_the_moves_back_rejects_only_those():
    table = automaton(list(move_pruning.MOVE_BACK))
    assert np.array_equal(table, pruning_table(redundant=False))
    for a in range(4):
        for b in range(4):
            assert (table[int(table[0, a]), b] < 0) == (DIRECTIONS[a] + DIRECTIONS[b] in move_pruning.MOVE_BACK)


@pytest.mark.parametrize("kind", ["manhattan", "linear-conflict"])
def test_skipping_redundant_routes_keeps_the_optimum(kind):
    heuristic = simple_heuristic(4, kind)
    for board in WALKS:
        plain = run(board, heuristic, "idastar", threads=1, pruned=False)
        pruned = run(board, heuristic, "idastar", threads=1)
        assert_legal_path(pruned.path, board)
        assert pruned.moves == plain.moves


def test_skipping_redundant_routes_keeps_the_optimum_with_pattern_databases(pdb_cache):
    heuristic = pdb_heuristic(4)
    for line in KORF_SAMPLE:
        length, *tiles = map(int, line.split())
        board = Board.from_tiles(tiles)
        assert run(board, heuristic, "pdb", threads=1).moves == length
        assert run(board, heuristic, "pdb", threads=1, pruned=False).moves == length


def test_a_full_iteration_expands_a_tenth_fewer_nodes_or_more_when_pruned():
    board = walk(4, 200, 13)
    heuristic = simple_heuristic(4, "linear-conflict")
    kernel = kernel_for(4, heuristic)
    bound = run(board, heuristic, "idastar", threads=1).moves - 2  # the last full iteration
    expanded = {}
    for redundant in (False, True):
        path, counters = np.zeros(MAX_DEPTH + 1, dtype=np.int64), np.zeros(5, dtype=np.int64)
        status = kernel(np.array(board.tiles, dtype=np.int64), path, counters, 10**9, bound=bound,
                        prune=pruning_table(redundant))
        assert status == NOT_FOUND
        expanded[redundant] = int(counters[0])
    assert expanded[True] < 0.9 * expanded[False]
