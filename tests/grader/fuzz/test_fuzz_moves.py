"""Fuzz the moves parser and verifier (answers printed as moves) with hypothesis.

Whatever a submission prints for a moves assignment -- move words and letters in any
case, separators, brackets and quotes, cost lines, unsolvable wordings, random text and
bytes -- parse + verify never raise, and the verdict is one of the closed set, in every
style and direction convention. A crash here would be a JE for a student whose only
fault was odd output.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.judging.moves_format import MOVE_NAMES, STYLES
from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.board import Board
from tests.support import examples

CASES = [Expected(Board.from_tiles([1, 4, 2, 3, 0, 5, 6, 7, 8]), True, 2),
         Expected(Board.goal(3, blank_first=True), True, 0),
         Expected(Board.from_tiles([1, 0, 2, 4, 3, 5, 6, 7, 8]), False, None),
         Expected(Board.from_tiles([1, 0, 2, 3]), True, 1)]
PIECES = ["UP", "DOWN", "LEFT", "RIGHT", "Up", "left", "U", "d", "L", "r", "ULDR", "X", "", " ", ",", "\n", "\r\n",
          "[", "]", "'", '"', ":", "path_to_goal:", "cost_of_path:", "cost_of_path: 2", "2", "-1", "99999999999",
          "No solution possible", "Minimum number of moves = 2", "\x00", "é", "nodes_expanded: 7"]


def fuzz(count: int) -> settings:
    return settings(max_examples=count, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# 33 pieces, 40 at most, in every style, naming and case: 400 derandomized examples (the thorough profile
# runs 1,500) still put every piece into outputs of every style on every case.
@fuzz(examples(ci=400, thorough=1500))
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from(STYLES), st.sampled_from(MOVE_NAMES),
       st.sampled_from(CASES))
def test_moves_made_of_plausible_pieces_always_get_a_verdict(pieces: list[str], style: str, names: str,
                                                             expected: Expected) -> None:
    rules = Rules(output_format="moves", moves_style=style, move_names=names, blank_first=True)
    result = verify("".join(pieces), expected, rules)
    assert result.verdict in Verdict
    assert result.verdict is not Verdict.JE  # the optima above are right: only a wrong test set is JE


@fuzz(500)
@given(st.binary(max_size=300), st.sampled_from(STYLES), st.sampled_from(CASES))
def test_random_bytes_always_get_a_verdict(data: bytes, style: str, expected: Expected) -> None:
    result = verify(data, expected, Rules(output_format="moves", moves_style=style, blank_first=True))
    assert result.verdict in Verdict
