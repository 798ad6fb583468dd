"""``grade testcases generate``: a deterministic, certified test set from a seed.

Each group of cases draws from its own random stream, seeded by ``"<seed>:<group>"``,
so the same seed and plan give the same boards, and changing one group's count does
not reshuffle the others. Every count is certified by the reference solver
(:func:`grader.testsets.certify.certify`).

Boards at a chosen optimal depth come from random walks from the goal: a walk's
length bounds the optimum from above and the linear-conflict heuristic bounds it from
below, so only walks whose heuristic lies in (or just under) the bucket are solved,
and a board is kept only if its certified optimum lands in the bucket.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.errors import GraderError
from grader.model.manifest import Visibility
from grader.testsets.certify import (
    Certificate,
    CertificationLimit,
    answer_tags,
    certify,
    format_board,
)
from grader.testsets.model import Case
from solver.board import Board

# The only two 31-move 8-puzzle positions, the 8-puzzle maximum (exhaustive BFS; also in
# ../shared/bench/hardest.txt). Kept here so generating needs no outside file.
HARDEST_3X3 = ((8, 6, 7, 2, 5, 4, 3, 0, 1), (6, 4, 7, 8, 5, 0, 3, 2, 1))
GODS_NUMBER = {2: 6, 3: 31, 4: 80}
"""The largest optimal length of any board of that size (exhaustive searches)."""
CORNERS = (("tl", lambda n: 0), ("tr", lambda n: n - 1), ("bl", lambda n: n * (n - 1)),
           ("br", lambda n: n * n - 1))

Progress = Callable[[str], None]


class GenerateError(GraderError):
    """A plan that cannot be met (e.g. a bucket no walk lands in): exit 2, bad usage."""

    exit_code = 2


@dataclass(frozen=True)
class Bucket:
    """``count`` boards of size ``n`` whose certified optimum lies in ``lo..hi``."""

    n: int
    lo: int
    hi: int
    count: int
    max_effort: int | None = None
    """If set, keep only boards that IDA* with Manhattan distance solves within this many expanded
    nodes: depth alone says little about how long a student's A* with Manhattan distance takes."""

    @classmethod
    def parse(cls, text: str) -> Bucket:
        """``N:LO-HI:COUNT``, e.g. ``4:30-39:2``."""
        match = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*-\s*(\d+)\s*:\s*(\d+)\s*", text)
        if not match:
            raise ValueError(f"expected N:LO-HI:COUNT (e.g. 4:30-39:2), found {text!r}")
        n, lo, hi, count = map(int, match.groups())
        if n < 3 or lo > hi:
            raise ValueError(f"expected N >= 3 and LO <= HI, found {text!r}")
        if n in GODS_NUMBER and lo > GODS_NUMBER[n]:
            raise ValueError(f"no {n}x{n} board needs more than {GODS_NUMBER[n]} moves, found {text!r}")
        return cls(n, lo, hi, count)

    def __str__(self) -> str:
        return f"{self.n}:{self.lo}-{self.hi}:{self.count}"


@dataclass(frozen=True)
class Plan:
    """What to generate. The defaults make a small set covering every kind of case."""

    random_3x3: int = 12
    buckets: tuple[Bucket, ...] = (Bucket(4, 20, 29, 2), Bucket(4, 30, 39, 2), Bucket(5, 20, 29, 1),
                                   Bucket(5, 30, 39, 1))
    deep_4x4: int = 2
    deep_range: tuple[int, int] = (50, 56)
    deep_max_effort: int | None = None
    two_by_two: int = 3
    unsolvable_sizes: tuple[int, ...] = (2, 3, 3, 4, 4, 5)
    solved_sizes: tuple[int, ...] = (3, 4)
    corners: bool = True
    hardest_3x3: bool = True
    visible_every: int = 3
    points: float = 1
    hard_time_limit: float | None = 30
    walk_slack: int = 10
    node_limit: int | None = None
    max_attempts: int = 20_000

    def deep_only(self) -> Plan:
        """This plan with every group but the deep 4x4 boards emptied: a stress tier kept as its
        own set, so the main set stays within reach of a plain A*. Each group draws from its own
        random stream, so the deep boards are those the full plan holds (unless another bucket
        overlaps the deep range and took a board first)."""
        return replace(self, random_3x3=0, buckets=(), two_by_two=0, unsolvable_sizes=(), solved_sizes=(),
                       corners=False, hardest_3x3=False)

    def all_buckets(self) -> tuple[Bucket, ...]:
        deep = (Bucket(4, *self.deep_range, self.deep_4x4, self.deep_max_effort),) if self.deep_4x4 else ()
        return self.buckets + deep


@dataclass(frozen=True)
class GeneratedCase:
    case: Case
    board: Board
    text: str | bytes


@dataclass
class _Builder:
    seed: str
    plan: Plan
    style: str
    progress: Progress
    blank_first: bool = False
    used: set[tuple[int, ...]] = field(default_factory=set)
    cases: list[GeneratedCase] = field(default_factory=list)

    def rng(self, group: str) -> random.Random:
        return random.Random(f"{self.seed}:{group}")

    def add(self, case_id: str, board: Board, extra_tags: list[str], index: int, source: str,
            moves: int | None = None, cert: Certificate | None = None) -> None:
        """Certify and record one case; ``index`` within its group decides its visibility.

        ``board`` is drawn for the standard goal; a blank-first set gets its image under
        :meth:`Board.standardized` (an involution that keeps every move a move), so the same
        certificate holds for the blank-first goal.
        """
        cert = cert or certify(board, self.plan.node_limit)
        if moves is not None and cert.moves != moves:
            raise AssertionError(f"{case_id}: expected {moves} moves, the reference solver finds {cert.moves}")
        tags = answer_tags(board, cert) + [t for t in extra_tags if t]
        hard = "hard" in tags
        visibility: Visibility = "hidden" if hard else ("visible" if index % self.plan.visible_every == 0 else "hidden")
        case = Case(id=case_id, input_path=Path("cases", f"{case_id}.txt"), n=board.n, solvable=cert.solvable,
                    optimal_moves=cert.moves, points=self.plan.points, visibility=visibility,
                    time_limit_seconds=self.plan.hard_time_limit if hard else None, tags=tuple(tags),
                    input=f"cases/{case_id}.txt", source=source)
        self.used.add(board.tiles)
        shown = board.standardized(self.blank_first)
        self.cases.append(GeneratedCase(case, shown, format_board(shown, self.style)))
        answer = f"{cert.moves} moves" if cert.solvable else "unsolvable"
        self.progress(f"{case_id}: {answer} (certified in {cert.seconds:.2f} s)")

    def random_board(self, rng: random.Random, n: int, want_solvable: bool,
                     blank_at: int | None = None) -> Board:
        """A uniformly random board with the given solvability (and blank cell), not used before."""
        tiles = list(range(n * n))
        while True:
            rng.shuffle(tiles)
            if blank_at is not None and tiles[blank_at] != 0:
                continue
            board = Board(tuple(tiles), n)
            if board.is_solvable() == want_solvable and board.tiles not in self.used and not board.is_goal():
                return board


def random_walk(rng: random.Random, n: int, length: int) -> Board:
    """The board after ``length`` random moves from the goal, never undoing the previous move."""
    board, previous = Board.goal(n), None
    for _ in range(length):
        options = [(move, child) for move, child in board.successors() if move.opposite is not previous]
        previous, board = rng.choice(options)
    return board


def within_effort(board: Board, max_nodes: int) -> bool:
    """Whether IDA* with Manhattan distance solves ``board`` within ``max_nodes`` expanded nodes.

    The yardstick is the plain search a student would write: children in direction order, only
    the move back skipped. The solver's own refinements (the remembered route, the pruning of
    redundant routes) would change the count, by up to four times either way on one board, and
    with it which boards a build keeps (and so would searching a corner-blank board from its dual,
    :mod:`solver.search.dual`). Run without a node limit: the compiled search is fast
    to the end (tens of millions of nodes a second) but slow to stop early, and 50-move boards
    rarely need more than 10^8 nodes.
    """
    from solver.solve import plain_effort

    return plain_effort(board) <= max_nodes


def _walk_boards(builder: _Builder, bucket: Bucket) -> Iterator[tuple[Board, int]]:
    """Walk boards whose heuristic makes the bucket reachable, with their walk length."""
    rng = builder.rng(f"walk-{bucket.n}-{bucket.lo}-{bucket.hi}")
    longest = max(bucket.hi + 10, 4 * bucket.hi)
    for _ in range(builder.plan.max_attempts):
        length = rng.randint(bucket.lo, longest)
        board = random_walk(rng, bucket.n, length)
        bound = board.linear_conflict()
        if bucket.lo - builder.plan.walk_slack <= bound <= bucket.hi and board.tiles not in builder.used:
            yield board, length


def generate(seed: str | int, plan: Plan = Plan(), style: str = "plain",
             progress: Progress = lambda message: None, blank_first: bool = False) -> list[GeneratedCase]:
    """Every case of ``plan`` for ``seed``, certified, in a fixed order.

    ``blank_first``: for the goal ``0 1 2 …``: each board is the image of the one a blank-last
    set draws (same ids, counts and tags), except the corner cases, drawn anew so that the blank
    sits in the corner their names say.
    """
    b = _Builder(str(seed), plan, style, progress, blank_first)

    rng = b.rng("2x2")
    for i in range(plan.two_by_two):
        b.add(f"2x2-rand-{i + 1:02d}", b.random_board(rng, 2, True), ["random"], i, "uniform random 2x2")

    for i, n in enumerate(plan.solved_sizes):
        b.add(f"{n}x{n}-solved", Board.goal(n), [], i, "the goal board", moves=0)

    rng = b.rng("3x3")
    for i in range(plan.random_3x3):
        b.add(f"3x3-rand-{i + 1:02d}", b.random_board(rng, 3, True), ["random"], i, "uniform random solvable 3x3")

    if plan.corners:
        rng = b.rng("corners")
        for i, (name, cell) in enumerate(CORNERS):
            # The image of a board turns it by 180 degrees: draw the blank in the opposite corner.
            board = b.random_board(rng, 3, True, blank_at=8 - cell(3) if blank_first else cell(3))
            b.add(f"3x3-corner-{name}", board, [f"edge:blank-{name}"], i, f"uniform random 3x3, blank {name}")

    if plan.hardest_3x3:
        for i, tiles in enumerate(HARDEST_3X3):
            b.add(f"3x3-d31-{'ab'[i]}", Board(tiles, 3), ["edge:hardest-3x3"], i, "a 31-move 8-puzzle position",
                  moves=31)

    for bucket in plan.all_buckets():
        found = 0
        for board, length in _walk_boards(b, bucket):
            if found == bucket.count:
                break
            try:
                cert = certify(board, plan.node_limit)
            except CertificationLimit:
                continue
            if cert.moves is None or not bucket.lo <= cert.moves <= bucket.hi:
                continue
            if bucket.max_effort is not None and not within_effort(board, bucket.max_effort):
                continue
            name = f"{bucket.n}x{bucket.n}-d{bucket.lo}-{bucket.hi}-{found + 1:02d}"
            b.add(name, board, ["walk"], found, f"random walk of {length} moves from the goal", cert=cert)
            found += 1
        if found < bucket.count:
            raise GenerateError(f"bucket {bucket}: found only {found} of {bucket.count} boards in "
                                f"{plan.max_attempts} random walks")

    rng = b.rng("unsolvable")
    seen: dict[int, int] = {}
    for i, n in enumerate(plan.unsolvable_sizes):
        seen[n] = seen.get(n, 0) + 1
        b.add(f"{n}x{n}-unsolvable-{seen[n]:02d}", b.random_board(rng, n, False), [], i,
              f"uniform random unsolvable {n}x{n}")
    return b.cases
