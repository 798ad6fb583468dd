"""Sharing the boards of known depth out among harness runs, and judging a test run in several."""

from __future__ import annotations

import pytest

from grader.apitests.battery import DEPTH_COST_BASE, share_depth_boards
from grader.apitests.catalogue import BY_NAME, Planned
from grader.apitests.protocol import Reported
from grader.apitests.run import _judge

BOARDS = [{"tiles": [[d]], "moves": d} for d in range(1, 32)]


@pytest.mark.parametrize("lanes", [1, 2, 3, 4])
def test_every_board_goes_to_exactly_one_lane_in_its_order(lanes):
    shares = share_depth_boards(BOARDS, lanes)
    assert len(shares) == lanes
    assert sorted(b["moves"] for share in shares for b in share) == list(range(1, 32))
    for share in shares:
        assert [b["moves"] for b in share] == sorted(b["moves"] for b in share)


def test_the_work_is_shared_about_equally():
    shares = share_depth_boards(BOARDS, 2)
    work = [sum(DEPTH_COST_BASE ** b["moves"] for b in share) for share in shares]
    # The deepest board alone is over a third of all the work: the split cannot beat it, and does not lose to it.
    assert max(work) / sum(work) < 0.55


def test_too_few_boards_stay_in_one_lane():
    assert share_depth_boards(BOARDS[:1], 2) == [BOARDS[:1]]
    assert share_depth_boards([], 2) == [[]]


PLANNED = Planned(BY_NAME["solver.moves.random"], 4.0)


def test_a_test_passes_only_when_every_lane_passed_it():
    result = _judge(PLANNED, [Reported("solver.moves.random", True, "passed in 1.20 s"),
                              Reported("solver.moves.random", True, "passed in 7.50 s")])
    assert result.passed and result.points == 4.0 and result.message == "passed in 7.50 s"


def test_a_failure_in_any_lane_fails_the_test_with_its_message():
    wrong = "a 3x3 board 30 moves from the goal (seed 2024): moves() returned 29, expected 30"
    result = _judge(PLANNED, [Reported("solver.moves.random", True, "passed in 1.20 s"),
                              Reported("solver.moves.random", False, wrong)])
    assert not result.passed and result.points == 0.0 and result.message == wrong


def test_a_lane_that_never_reported_the_test_fails_it_with_why():
    crashed = "the run timed out (60 s) during this test"
    result = _judge(PLANNED, [Reported("solver.moves.random", True, "passed in 1.20 s"), crashed])
    assert not result.passed and result.message == crashed
