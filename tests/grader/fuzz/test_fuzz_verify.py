"""Fuzz the output parser, the verifier and the judge with hypothesis (2,000 generated outputs in all by
default, the 10,000 of a long run under HYPOTHESIS_PROFILE=thorough).

Whatever a submission prints -- a valid solution mutated (boards swapped, dropped or
duplicated, K changed, two tiles flipped, whitespace or CRLF corrupted, truncated, junk
bytes inserted), an unsolvable wording, or random text and bytes -- parse + verify + judge
never raise, and the verdict is one of the closed set. A crash here would be a JE (or a
stopped batch) for a student whose only fault was odd output.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.judging.hints import Context
from grader.judging.judge import Answer, judge
from grader.judging.verdicts import RunFacts, Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.board import Board
from solver.errors import SolverError
from solver.formats import DEFAULT_UNSOLVABLE_WORDINGS, format_solution, parse_solution
from solver.solve import solve
from tests.support import examples


def fuzz(count: int) -> settings:
    # derandomize: every run (and CI) checks the same examples, so a failure reproduces
    return settings(max_examples=count, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _case(tiles: list[int]) -> tuple[Expected, bytes]:
    board = Board.from_tiles(tiles)
    path = solve(board).path
    return Expected(board, path is not None, len(path) - 1 if path else None), format_solution(path).encode()


CASES = [_case([1, 4, 2, 3, 0, 5, 6, 7, 8]),                     # 3x3, blank-first optimum differs
         _case([8, 1, 3, 4, 0, 2, 7, 6, 5]),                     # 3x3, 14 moves
         _case([0, 3, 2, 1]),                                    # 2x2
         _case([5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 0, 14, 15, 12]),  # 4x4
         _case([1, 2, 3, 4, 5, 6, 8, 7, 0])]                     # 3x3 unsolvable
VERDICTS = set(Verdict)
WORDINGS = DEFAULT_UNSOLVABLE_WORDINGS + ("unsolvable", "Minimum number of moves = -1", "NO SOLUTION POSSIBLE.")


def mutate(output: bytes, draw) -> bytes:
    """One mutation of a valid output, chosen by hypothesis."""
    blocks = output.split(b"\n\n")
    head, boards = blocks[0].split(b"\n", 1) if b"\n" in blocks[0] else (blocks[0], b""), blocks[1:]
    kind = draw(st.sampled_from(["swap", "drop", "dup", "k", "flip", "space", "crlf", "truncate", "junk",
                                 "delete", "replace_line"]))
    if kind in ("swap", "drop", "dup") and len(boards) > 1:
        i = draw(st.integers(0, len(boards) - 1))
        j = draw(st.integers(0, len(boards) - 1))
        if kind == "swap":
            boards[i], boards[j] = boards[j], boards[i]
        elif kind == "drop":
            del boards[i]
        else:
            boards.insert(j, boards[i])
        return b"\n\n".join([head[0] + b"\n" + head[1], *boards]) if head[1] else b"\n\n".join([head[0], *boards])
    if kind == "k":
        k = draw(st.one_of(st.integers(-5, 100), st.just(10**30)))
        return output.replace(output.split(b"\n", 1)[0], b"Minimum number of moves = %d" % k, 1)
    if kind == "flip":
        numbers = [i for i, token in enumerate(output.split(b" ")) if token.strip().isdigit()]
        tokens = output.split(b" ")
        if len(numbers) >= 2:
            i, j = draw(st.sampled_from(numbers)), draw(st.sampled_from(numbers))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        return b" ".join(tokens)
    if kind == "space":
        at = draw(st.integers(0, len(output)))
        return output[:at] + draw(st.sampled_from([b" ", b"\t", b"\n", b"\n\n\n", b"\x0b", b"\xc2\xa0", b""])) \
            + output[at + draw(st.integers(0, 2)):]
    if kind == "crlf":
        return output.replace(b"\n", draw(st.sampled_from([b"\r\n", b"\r", b"\n\r"])))
    if kind == "truncate":
        return output[:draw(st.integers(0, len(output)))]
    if kind == "junk":
        at = draw(st.integers(0, len(output)))
        return output[:at] + draw(st.binary(min_size=1, max_size=8)) + output[at:]
    if kind == "delete":
        at = draw(st.integers(0, len(output)))
        return output[:at] + output[at + draw(st.integers(1, 20)):]
    lines = output.split(b"\n")
    lines[draw(st.integers(0, len(lines) - 1))] = draw(st.binary(max_size=20))
    return b"\n".join(lines)


def check(output: bytes, expected: Expected, rules: Rules) -> Verdict:
    """Parse, verify and judge ``output``; any exception fails the test."""
    try:
        parse_solution(output, "output.txt", n=expected.board.n)
    except SolverError:
        pass  # the parser's documented refusal; verify turns it into a PE
    verification = verify(output, expected, rules) if output.strip() else None
    assert verification is None or verification.verdict in VERDICTS
    for facts in (RunFacts(False, False, 0, None, False, 0.1, 5, 512),
                  RunFacts(True, False, None, 9, True, 5.0, 5, 512)):
        verdict, message = judge(facts, Answer("output.txt", output, b"\xff\xfe junk"), verification, Context(),
                                 expected.solvable)
        assert verdict in VERDICTS and isinstance(message, str)
    return verification.verdict if verification else Verdict.NO


rules_strategy = st.builds(Rules, blank_first=st.booleans(), strict=st.booleans())


# 11 mutation kinds x 5 cases x 4 rule sets, 1 to 3 mutations deep: 1,000 derandomized examples reach every
# kind on every case several times over (hypothesis also shrinks toward the simple ones first); the thorough
# profile keeps the old 4,500 for a long run.
@fuzz(examples(ci=1000, thorough=4500))
@given(case=st.sampled_from(CASES), rules=rules_strategy, data=st.data())
def test_mutated_solutions(case, rules, data) -> None:
    expected, output = case
    for _ in range(data.draw(st.integers(1, 3))):
        output = mutate(output, data.draw)
    check(output, expected, rules)


def test_unmutated_solutions_are_accepted() -> None:
    for expected, output in CASES:  # the baseline the mutations start from
        assert check(output, expected, Rules()) is Verdict.AC


# 5 cases x 7 wordings x 4 case changes, with padding and a tail: 400 examples cover the wordings on every
# case; the cost is in the judge, not in what is generated.
@fuzz(examples(ci=400, thorough=2000))
@given(case=st.sampled_from(CASES), wording=st.sampled_from(WORDINGS), case_change=st.sampled_from(
    [str.lower, str.upper, str.title, lambda s: s]), padding=st.text(" \t\r\n.!", max_size=4),
    tail=st.one_of(st.just(""), st.text(max_size=30)))
def test_unsolvable_wordings(case, wording, case_change, padding, tail) -> None:
    expected, _ = case
    check((padding + case_change(wording) + padding + tail).encode("utf-8", "surrogatepass"), expected, Rules())


# Three generators (bytes, text, number-like tokens) on 5 cases: 600 examples give each pairing ~40.
@fuzz(examples(ci=600, thorough=3500))
@given(case=st.sampled_from(CASES), output=st.one_of(
    st.binary(max_size=120),
    st.text(max_size=80).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.lists(st.one_of(st.integers(-3, 20).map(str), st.sampled_from(["\n", " ", "\n\n", "Minimum number of moves =",
                                                                     "=", "-", "|", "0"])),
             max_size=80).map(lambda parts: " ".join(parts).encode())))
def test_random_output(case, output) -> None:
    expected, _ = case
    check(output, expected, Rules())
