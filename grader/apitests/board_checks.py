"""The Board tests, by name (``t_board_<name>``): each raises :class:`Fail` with the student's message.

They run in the judge (:mod:`grader.apitests.judge`), never beside the student's code: every
Board is a handle in the worker, every answer data the worker sent, every expected value the
solver core's (:mod:`grader.apitests.refmodel`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from grader.apitests.refmodel import (
    Fail,
    Tiles,
    goal,
    kind,
    one_line,
    parse_string,
    ref_hamming,
    ref_manhattan,
    ref_neighbors,
    rows,
    show,
    solvable,
)
from grader.apitests.refmodel import short as _short

if TYPE_CHECKING:
    from grader.apitests.remote_api import RemoteApi

Named = tuple[str, Tiles, int]
"""A board to test: what the messages call it, its tiles, its size."""


class BoardTests:
    """The Board's tests and the helpers every test uses."""

    api: RemoteApi
    """The worker's classes, set once the worker has found them (the spec alone serves before that)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.seed = spec["seed"]
        self.files = [(f["name"], tuple(v for row in f["tiles"] for v in row), len(f["tiles"]), f.get("solvable"),
                       f.get("moves")) for f in spec.get("files", [])]
        self.sizes = spec.get("sizes", [2, 3, 4, 5, 9, 10, 127])

    # helpers -------------------------------------------------------------
    def make(self, tiles: Tiles, n: int) -> Any:
        return self.api.new_board(rows(tiles, n))

    def tiles_of(self, board: Any, n: int, context: str) -> Tiles:
        return parse_string(self.api.call(board, "toString"), n, context)

    def rng(self, label: str) -> random.Random:
        return random.Random("%s:%s" % (self.seed, label))

    def random_tiles(self, n: int, label: str, want_solvable: bool | None = None) -> Tiles:
        rng = self.rng("%s:%d" % (label, n))
        while True:
            t = list(range(n * n))
            rng.shuffle(t)
            if want_solvable is None or solvable(tuple(t), n) == want_solvable:
                return tuple(t)

    def random_boards(self, label: str, sizes: Sequence[int] | None = None) -> Iterator[Named]:
        for n in sizes or self.sizes:
            yield "random %dx%d board (seed %s)" % (n, n, self.seed), self.random_tiles(n, label), n

    def file_boards(self, limit: int = 6) -> Iterator[Named]:
        chosen = [f for f in self.files if f[2] <= 10][:limit]
        for name, tiles, n, _, _ in chosen:
            yield name, tiles, n

    def expect(self, what: str, context: str, expected: object, found: object, tiles: Tiles | None = None,
               n: int | None = None) -> None:
        if expected != found:
            board = ("\n" + show(tiles, n)) if tiles is not None and n is not None and n <= 5 else ""
            raise Fail("%s: %s returned %r, expected %r%s" % (context, what, found, expected,
                                                              (" for the board" + board) if board else ""))

    # board tests ---------------------------------------------------------
    def check_scalar(self, member: str, reference: Callable[[Tiles, int], object], boards: Iterable[Named]) -> None:
        for context, tiles, n in boards:
            board = self.make(tiles, n)
            self.expect(self.api.label(member), context, reference(tiles, n), self.api.call(board, member), tiles, n)

    def t_board_hamming_files(self) -> None:
        self.check_scalar("hamming", ref_hamming, self.file_boards())

    def t_board_hamming_random(self) -> None:
        self.check_scalar("hamming", ref_hamming, self.random_boards("hamming"))

    def t_board_manhattan_files(self) -> None:
        self.check_scalar("manhattan", ref_manhattan, self.file_boards())

    def t_board_manhattan_random(self) -> None:
        self.check_scalar("manhattan", ref_manhattan, self.random_boards("manhattan"))

    def t_board_dimension(self) -> None:
        self.check_scalar("dimension", lambda t, n: n, self.random_boards("dimension", [2, 3, 4, 5, 6]))

    def check_tostring(self, boards: Iterable[Named]) -> None:
        for context, tiles, n in boards:
            found = self.tiles_of(self.make(tiles, n), n, context)
            if found != tiles:
                raise Fail("%s: toString() shows\n%s\nbut the board is\n%s" % (context, show(found, n), show(tiles, n)))

    def t_board_tostring_files(self) -> None:
        self.check_tostring(self.file_boards())

    def t_board_tostring_random(self) -> None:
        self.check_tostring(self.random_boards("tostring"))

    def check_neighbors(self, boards: Iterable[Named], depth: int) -> None:
        for context, tiles, n in boards:
            board = self.make(tiles, n)
            self._neighbors(board, tiles, n, context, depth)

    def _neighbors(self, board: Any, tiles: Tiles, n: int, context: str, depth: int) -> None:
        got = self.api.call(board, "neighbors")
        try:
            boards = list(got)
        except TypeError:
            raise Fail("%s: %s returned %s, which cannot be iterated" % (context, self.api.label("neighbors"),
                                                                        kind(got))) from None
        shown = [self.tiles_of(b, n, "%s, a neighbour" % context) for b in boards]
        expected = ref_neighbors(tiles, n)
        if sorted(shown) != sorted(expected):
            extra = [one_line(t, n) for t in shown if t not in expected]
            missing = [one_line(t, n) for t in expected if t not in shown]
            raise Fail("%s: %s returned %d boards, expected %d; %s%s" % (
                context, self.api.label("neighbors"), len(shown), len(expected),
                ("not neighbours: %s; " % "; ".join(extra[:3])) if extra else "",
                ("missing: %s" % "; ".join(missing[:3])) if missing else "(a board repeated)"))
        if depth > 1:
            for b, t in zip(boards, shown):
                self._neighbors(b, t, n, "%s, neighbour %s" % (context, one_line(t, n)), depth - 1)

    def t_board_neighbors_files(self) -> None:
        self.check_neighbors(self.file_boards(), 1)

    def t_board_neighbors_random(self) -> None:
        self.check_neighbors(self.random_boards("neighbors"), 1)

    def t_board_neighbors_of_neighbors(self) -> None:
        self.check_neighbors(list(self.file_boards()) + list(self.random_boards("nn", [2, 3, 4, 5, 9, 10])), 2)

    def check_twin(self, boards: Iterable[Named]) -> None:
        for context, tiles, n in boards:
            twin = self.api.call(self.make(tiles, n), "twin")
            shown = self.tiles_of(twin, n, "%s, its twin" % context)
            diff = [i for i in range(n * n) if shown[i] != tiles[i]]
            ok = (len(diff) == 2 and shown[diff[0]] == tiles[diff[1]] and shown[diff[1]] == tiles[diff[0]]
                  and 0 not in (tiles[diff[0]], tiles[diff[1]]))
            if not ok:
                raise Fail("%s: twin() must swap exactly two tiles, neither of them the blank; the board\n%s\n"
                           "gave the twin\n%s" % (context, show(tiles, n), show(shown, n)))

    def t_board_twin_files(self) -> None:
        self.check_twin(self.file_boards())

    def t_board_twin_random(self) -> None:
        corner = [("a 3x3 board with the blank at row 1, column %d" % (k + 1),
                   tuple(t for t in range(1, 9)[:k]) + (0,) + tuple(range(1, 9)[k:]), 3) for k in (0, 1)]
        self.check_twin(list(self.random_boards("twin", [2, 3, 4, 5, 9, 10])) + corner)

    def t_board_isgoal_files(self) -> None:
        self.check_scalar("isGoal", lambda t, n: t == goal(n), self.file_boards(10))

    def t_board_isgoal_boards(self) -> None:
        boards = []
        for n in (2, 3, 4, 5, 6, 100):
            boards.append(("the %dx%d goal" % (n, n), goal(n), n))
            for t in ref_neighbors(goal(n), n):
                boards.append(("a %dx%d board one move from the goal" % (n, n), t, n))
        self.check_scalar("isGoal", lambda t, n: t == goal(n), boards)

    def t_board_two_at_once(self) -> None:
        for m, n in ((3, 3), (4, 4), (2, 2), (3, 4), (4, 3)):
            a_tiles, b_tiles = self.random_tiles(m, "two-a"), self.random_tiles(n, "two-b%d" % m)
            a = self.make(a_tiles, m)
            b = self.make(b_tiles, n)
            context = "a random %dx%d board created before a %dx%d one (seed %s)" % (m, m, n, n, self.seed)
            self.expect("dimension()", context, m, self.api.call(a, "dimension"))
            self.expect(self.api.label("hamming"), context, ref_hamming(a_tiles, m), self.api.call(a, "hamming"),
                        a_tiles, m)
            self.expect(self.api.label("manhattan"), context, ref_manhattan(a_tiles, m),
                        self.api.call(a, "manhattan"), a_tiles, m)
            if self.tiles_of(a, m, context) != a_tiles:
                raise Fail("%s: toString() of the first board changed after the second was created" % context)
            if self.tiles_of(b, n, context) != b_tiles:
                raise Fail("%s: toString() of the second board is wrong" % context)

    def eq(self, a: Any, b: Any) -> Any:
        return self.api.call(a, "equals", b)

    def t_board_equals_properties(self) -> None:
        tiles = self.random_tiles(3, "equals")
        a, b, c = self.make(tiles, 3), self.make(tiles, 3), self.make(tiles, 3)
        label = self.api.label("equals")
        checks = [("reflexive: a %s a" % label, lambda: self.eq(a, a), True),
                  ("symmetric: a %s b" % label, lambda: self.eq(a, b), True),
                  ("symmetric: b %s a" % label, lambda: self.eq(b, a), True),
                  ("transitive: b %s c" % label, lambda: self.eq(b, c), True),
                  ("transitive: a %s c" % label, lambda: self.eq(a, c), True),
                  ("argument is None", lambda: self.eq(a, None), False),
                  ("argument is a string", lambda: self.eq(a, "3\n1 2 3\n4 5 6\n7 8 0"), False),
                  ("argument is a list of the same tiles", lambda: self.eq(a, rows(tiles, 3)), False)]
        for what, call, expected in checks:
            try:
                found = call()
            except Fail:
                raise
            except Exception as exc:
                raise Fail("equals, %s: raised %s; expected %s" % (what, exc, expected)) from None
            if bool(found) is not expected or not isinstance(found, bool):
                raise Fail("equals, %s: returned %r, expected %r (boards made from the same 3x3 tiles, seed %s)"
                           % (what, found, expected, self.seed))

    def t_board_equals_random(self) -> None:
        for n in (2, 3, 4, 5, 7, 9):
            tiles = self.random_tiles(n, "eqr")
            a, same = self.make(tiles, n), self.make(tiles, n)
            context = "random %dx%d boards (seed %s)" % (n, n, self.seed)
            if self.eq(a, same) is not True:
                raise Fail("%s: two boards of the same tiles: %s returned False" % (context, self.api.label("equals")))
            for other in ref_neighbors(tiles, n)[:2] + [self.random_tiles(n, "eqr-other")]:
                if other != tiles and self.eq(a, self.make(other, n)) is not False:
                    raise Fail("%s: boards that differ: %s returned True for\n%s\nand\n%s" % (
                        context, self.api.label("equals"), show(tiles, n), show(other, n)))

    def t_board_equals_sizes(self) -> None:
        for m, n in ((4, 5), (2, 5), (5, 3), (2, 3), (3, 2)):
            small, big = min(m, n), max(m, n)
            corner = self.random_tiles(small, "eqs-%d-%d" % (m, n))
            rest = list(range(small * small, big * big))
            self.rng("eqs-rest-%d-%d" % (m, n)).shuffle(rest)
            grid = []
            for r in range(big):
                row = []
                for c in range(big):
                    row.append(corner[r * small + c] if r < small and c < small else rest.pop())
                grid.append(row)
            big_tiles = tuple(v for row in grid for v in row)
            a_tiles, a_n, b_tiles, b_n = (corner, small, big_tiles, big) if m < n else (big_tiles, big, corner, small)
            found = self.eq(self.make(a_tiles, a_n), self.make(b_tiles, b_n))
            if found is not False:
                raise Fail("equals() of a %dx%d board and a %dx%d board returned %r, expected False (the smaller "
                           "board is the larger one's top-left corner; seed %s)" % (m, m, n, n, found, self.seed))

    def t_board_immutable_array(self) -> None:
        """The board before and after its caller's array changed: it must answer the same (compared with
        itself, not with the true values, so a wrong hamming() fails its own test, not this one)."""
        for n in (2, 3, 4, 10):
            tiles = self.random_tiles(n, "immutable")
            grid = self.api.keep(rows(tiles, n))  # the caller's array lives in the worker, beside the board
            board = self.api.new_board(grid)
            before = [self.api.call(board, member) for member in ("toString", "hamming", "manhattan")]
            self.api.mutate(grid)
            context = "a %dx%d board whose argument array was changed after construction (seed %s)" % (
                n, n, self.seed)
            after = [self.api.call(board, member) for member in ("toString", "hamming", "manhattan")]
            for member, was, now in zip(("toString", "hamming", "manhattan"), before, after):
                if was != now:
                    raise Fail("%s: %s returned %s before the change and %s after: the board must copy the "
                               "array it is given" % (context, self.api.label(member), _short(was), _short(now)))

    def make_from_grid(self, grid: list[list[int]]) -> Any:
        return self.api.new_board(grid)

    def observe(self, board: Any, n: int, order: Sequence[str]) -> dict[str, Any]:
        seen = {}
        for member in order:
            value = self.api.call(board, member)
            if member in ("neighbors",):
                value = sorted(self.tiles_of(b, n, "call order") for b in value)
            elif member == "twin":
                value = self.tiles_of(value, n, "call order")
            elif member == "toString":
                value = parse_string(value, n, "call order")
            seen[member] = value
        return seen

    def t_board_call_order(self) -> None:
        order = ["toString", "hamming", "manhattan", "isGoal", "dimension", "twin", "neighbors"]
        boards = [(name, tiles, n) for name, tiles, n, _, _ in self.files if n <= 5][:3]
        boards += list(self.random_boards("order", [2, 3, 4]))
        for context, tiles, n in boards:
            first = self.observe(self.make(tiles, n), n, order)
            second = self.observe(self.make(tiles, n), n, list(reversed(order)))
            again = self.make(tiles, n)
            third = self.observe(again, n, order[::2] + order[1::2])
            third.update(self.observe(again, n, order))
            for member in order:
                if not (first[member] == second[member] == third[member]):
                    raise Fail("%s: %s gave different results depending on which methods were called before it "
                               "(%r, then %r)" % (context, self.api.label(member), _short(first[member]),
                                                  _short(second[member])))

    def t_board_derived(self) -> None:
        """dimension/hamming/manhattan on the kth neighbour and the kth twin of a board."""
        sources = [(name, tiles, n) for name, tiles, n, _, _ in self.files if n <= 5][:3]
        for context, tiles, n in sources:
            board = self.make(tiles, n)
            current = tiles
            for k in range(1, 14):
                # every neighbour is fetched, as any caller of neighbors() would
                board = list(self.api.call(board, "neighbors"))[0]  # noqa: RUF015
                current = self.tiles_of(board, n, "%s, neighbour %d" % (context, k))
                where = "neighbour %d of %s" % (k, context)
                self.expect("dimension()", where, n, self.api.call(board, "dimension"))
                self.expect(self.api.label("hamming"), where, ref_hamming(current, n), self.api.call(board, "hamming"),
                            current, n)
                self.expect(self.api.label("manhattan"), where, ref_manhattan(current, n),
                            self.api.call(board, "manhattan"), current, n)
            board = self.make(tiles, n)
            for k in range(1, 14):
                board = self.api.call(board, "twin")
                current = self.tiles_of(board, n, "%s, twin %d" % (context, k))
                where = "twin %d of %s" % (k, context)
                self.expect(self.api.label("hamming"), where, ref_hamming(current, n), self.api.call(board, "hamming"),
                            current, n)
                self.expect(self.api.label("manhattan"), where, ref_manhattan(current, n),
                            self.api.call(board, "manhattan"), current, n)

    def t_board_memory(self) -> None:
        """Deep size of a board against a multiple of the reference's (tiles in one tuple)."""
        factor, slack = self.spec.get("memory_factor", 2.0), self.spec.get("memory_slack", 512)
        for n in (2, 3, 4, 8, 12, 16, 20, 37, 72, 120):
            tiles = self.random_tiles(n, "memory")
            board = self.make(tiles, n)
            if self.tiles_of(board, n, "a random %dx%d board (seed %s)" % (n, n, self.seed)) != tiles:
                raise Fail("a random %dx%d board (seed %s): toString() does not show the board's tiles, so its size "
                           "is not measured (memory points only for a board that works)" % (n, n, self.seed))
            student, reference = self.api.sizes(board, tiles, n, 1)
            if self.spec.get("language") == "java":
                # The sheet's 4n^2 + 32n + 64, plus the 8-byte alignment of up to n + 1 arrays (an int[][] board
                # of odd n pads each row by 4 bytes: 200 bytes at n = 3, which the assessment passes).
                bound = 4 * n * n + 32 * n + 64 + 4 * (n + 1)
                if student > bound:
                    raise Fail("a %dx%d Board takes %d bytes; the sheet allows at most 4n^2 + 32n + 64 (+ alignment) "
                               "= %d (64-bit, uncompressed references; seed %s)" % (n, n, student, bound, self.seed))
                continue
            if student > factor * reference + slack:
                raise Fail("a %dx%d board takes %d bytes, more than %.0fx the reference's %d bytes + %d (seed %s)"
                           % (n, n, student, factor, reference, slack, self.seed))
