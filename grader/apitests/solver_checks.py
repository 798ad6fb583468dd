"""The Solver, operation-count and conformance tests, by name: each raises :class:`Fail` when it fails.

The Solver runs on the reference Board (the worker's ``RefBoard``) when it works with it, as
the Princeton assessment substitutes its own Board, so a Board bug costs only Board tests.

They run in the judge, never beside the student's code. The memory and timing tests read
measures the worker takes next to the student's code, so they are believed only as far as
``docs/api-tests.md`` says: each counts only for a solve whose ``moves()`` the judge found
right, and is cross-checked with what the judge sees from outside (CPU time, peak memory).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from grader.apitests.board_checks import BoardTests, Named
from grader.apitests.refmodel import Fail, Tiles, goal, kind, ref_neighbors, show
from grader.apitests.remote import RefTiles, RemoteRaised

SOLVER_MEMBERS = ("isSolvable", "moves", "solution")


class SolverTests(BoardTests):
    """The Solver's tests, on top of the Board tests' helpers (making boards, reading them, expecting)."""

    substitute: bool
    """Whether the Solver runs on the worker's reference Board (set by :class:`grader.apitests.judge.Checks`)."""
    _counted: list[tuple[str, dict[str, int], Any]] | None = None

    # solver tests --------------------------------------------------------
    def solve(self, tiles: Tiles, n: int) -> Any:
        board = self.solver_board(tiles, n)
        return self.api.new_solver(board)

    def solver_board(self, tiles: Tiles, n: int) -> Any:
        if self.spec.get("reference_board", True) and self.substitute:
            return RefTiles(tuple(tiles), n)
        return self.make(tiles, n)

    def solver_cases(self, kind: str) -> list[tuple[str, Tiles, int, int]]:
        if kind == "files":
            sizes = self.spec.get("solver_sizes", [2, 3, 4, 5])
            return [(name, tiles, n, moves) for name, tiles, n, ok, moves in self.files
                    if ok and moves is not None and moves <= self.spec.get("max_file_moves", 31) and n in sizes]
        return [("a %dx%d board %d moves from the goal (seed %s)" % (len(b["tiles"]), len(b["tiles"]), b["moves"],
                                                                     self.seed),
                 tuple(v for row in b["tiles"] for v in row), len(b["tiles"]), b["moves"])
                for b in self.spec.get("depth_boards", [])]

    def solved(self, tiles: Tiles, n: int) -> Any:
        """One Solver per board for the moves() and solution() tests of the files and depths (each solve once:
        a student's A* on the deepest boards is the battery's largest cost); call-order tests build their own."""
        cache = self.__dict__.setdefault("_solved", {})
        if (tiles, n) not in cache:
            cache[(tiles, n)] = self.solve(tiles, n)
        return cache[(tiles, n)]

    def check_moves(self, cases: Iterable[tuple[str, Tiles, int, int]]) -> None:
        for context, tiles, n, moves in cases:
            self.expect(self.api.label("moves"), context, moves, self.api.call(self.solved(tiles, n), "moves"),
                        tiles, n)

    def check_solution(self, cases: Iterable[tuple[str, Tiles, int, int]]) -> None:
        for context, tiles, n, moves in cases:
            path = self.api.call(self.solved(tiles, n), "solution")
            self.check_path(path, tiles, n, moves, context)

    def check_path(self, path: Any, tiles: Tiles, n: int, moves: int, context: str) -> None:
        label = self.api.label("solution")
        if path is None:
            raise Fail("%s: %s returned None for a solvable board" % (context, label))
        try:
            boards = list(path)
        except TypeError:
            raise Fail("%s: %s returned %s, which cannot be iterated" % (context, label, kind(path))) from None
        shown = [self.board_tiles(b, n, "%s, board %d of the solution" % (context, i)) for i, b in enumerate(boards)]
        if len(shown) != moves + 1:
            raise Fail("%s: %s holds %d boards, expected %d (the initial board, then one per move of a shortest "
                       "solution)" % (context, label, len(shown), moves + 1))
        if shown[0] != tiles:
            raise Fail("%s: %s must start with the initial board, found\n%s" % (context, label, show(shown[0], n)))
        if shown[-1] != goal(n):
            raise Fail("%s: %s must end with the goal board, found\n%s" % (context, label, show(shown[-1], n)))
        for i in range(1, len(shown)):
            if shown[i] not in ref_neighbors(shown[i - 1], n):
                raise Fail("%s: %s, boards %d and %d are not one move apart:\n%s\nthen\n%s" % (
                    context, label, i, i + 1, show(shown[i - 1], n), show(shown[i], n)))

    def board_tiles(self, board: Any, n: int, context: str) -> Tiles:
        if isinstance(board, RefTiles):
            if board.n != n or sorted(board.tiles) != list(range(n * n)):
                raise Fail("%s: not an %dx%d board" % (context, n, n))
            return board.tiles
        return self.tiles_of(board, n, context)

    def t_solver_moves_files(self) -> None:
        self.check_moves(self.solver_cases("files"))

    def t_solver_solution_files(self) -> None:
        self.check_solution(self.solver_cases("files"))

    def t_solver_moves_random(self) -> None:
        self.check_moves(self.solver_cases("depths"))

    def t_solver_solution_random(self) -> None:
        self.check_solution(self.solver_cases("depths"))

    def unsolvable_cases(self) -> list[Named]:
        cases = [(name, tiles, n) for name, tiles, n, ok, _ in self.files
                 if ok is False and n <= 3 and n in self.spec.get("solver_sizes", [2, 3])]
        for grid in self.spec.get("unsolvable_boards", []):
            n = len(grid)
            cases.append(("an unsolvable %dx%d board (seed %s):\n%s" % (n, n, self.seed, show(
                tuple(v for row in grid for v in row), n)), tuple(v for row in grid for v in row), n))
        return cases

    def t_solver_issolvable(self) -> None:
        cases = [(name, tiles, n, True) for name, tiles, n, _ in self.solver_cases("files")[:6]]
        cases += [(f["name"], tuple(v for row in f["tiles"] for v in row), len(f["tiles"]), True)
                  for f in self.spec.get("generated", []) if f["name"] not in [c[0] for c in cases]]
        cases += [(name, tiles, n, False) for name, tiles, n in self.unsolvable_cases()]
        for context, tiles, n, expected in cases:
            self.expect(self.api.label("isSolvable"), context, expected,
                        self.api.call(self.solve(tiles, n), "isSolvable"), tiles, n)

    def t_solver_unsolvable(self) -> None:
        for context, tiles, n in self.unsolvable_cases():
            solver = self.solve(tiles, n)
            self.expect(self.api.label("moves"), context, -1, self.api.call(solver, "moves"), tiles, n)
            path = self.api.call(solver, "solution")
            if path is not None:
                raise Fail("%s: %s returned %s for an unsolvable board, expected None" % (
                    context, self.api.label("solution"), kind(path)))

    def t_solver_memory(self) -> None:
        """A solved Solver's deep size against twice its solution's boards (the search must not be kept).
        The size is the worker's measure: it counts only after the judge found ``moves()`` right."""
        factor, slack = 2.0, 4096
        cases = sorted(self.solver_cases("files"), key=lambda c: -c[3])[:4]
        if not cases:
            raise Fail("no solvable board to measure (a grader fault: the battery has generated boards)")
        for context, tiles, n, moves in cases:
            solver = self.solved(tiles, n)
            self.expect(self.api.label("moves"), context, moves, self.api.call(solver, "moves"), tiles, n)
            student, reference = self.api.sizes(solver, tiles, n, moves + 1)
            if student > factor * reference + slack:
                raise Fail("%s (%d moves): the solved Solver takes %d bytes, more than %.0fx its solution's %d boards "
                           "(%d bytes) + %d: does it keep its priority queue or search nodes?" % (
                               context, moves, student, factor, moves + 1, reference, slack))

    def t_solver_peak_memory(self) -> None:
        """The solve's peak memory against the sheet's A* on the same boards (tracemalloc, in the worker): at
        most 4x the reference's + 128 KB; the solve's moves() must be right, and the worker's resident
        memory, read from outside, must agree (see :meth:`RemoteApi.peak`)."""
        factor, slack = 4.0, 128 * 1024
        cases = [("a %dx%d board %d moves from the goal (seed %s + 1)" % (len(b["tiles"]), len(b["tiles"]), b["moves"],
                                                                         self.seed),
                  tuple(v for row in b["tiles"] for v in row), len(b["tiles"]), b["moves"])
                 for b in self.spec.get("peak_boards", [])]
        if not cases:
            raise Fail("the grader sent no boards for this test (a grader fault)")
        self.api.call(self.solve(cases[0][1], cases[0][2]), "moves")  # first use: imports, class-level tables
        for context, tiles, n, moves in cases:
            reference, student, found, problem = self.api.peak(tiles, n, self.substitute)
            self.expect(self.api.label("moves"), context, moves, found, tiles, n)
            if problem:
                raise Fail("%s: %s" % (context, problem))
            if student > factor * reference + slack:
                raise Fail("%s: solving it took up to %d bytes at once, more than %.0fx the sheet's A* (%d bytes) "
                           "+ %d: does it allocate a table for every board, or search breadth-first?" % (
                               context, student, factor, reference, slack))

    def t_solver_null(self) -> None:
        if self.spec.get("language") == "java":
            return self.java_null()
        try:
            self.api.new_solver(None)
        except RemoteRaised as exc:
            if exc.type_name in ("ValueError", "TypeError"):
                return
            raise Fail("Solver(None) raised %s; the sheet asks for ValueError or TypeError (Java's "
                       "IllegalArgumentException)" % exc) from None
        raise Fail("Solver(None) returned normally; the sheet asks it to raise ValueError or TypeError")

    def java_null(self) -> None:
        try:
            self.api.new_solver(None)
        except RemoteRaised as exc:
            if exc.type_name == "java.lang.IllegalArgumentException":
                return
            raise Fail("new Solver(null) threw %s; the sheet asks for an IllegalArgumentException"
                       % exc.text) from None
        raise Fail("new Solver(null) returned normally; the sheet asks for an IllegalArgumentException")

    def t_solver_two_at_once(self) -> None:
        cases = self.solver_cases("files")
        if len(cases) < 2:
            return
        small = sorted(cases, key=lambda c: c[3])
        pairs = [(small[len(small) // 2], small[len(small) // 2]), (small[0], small[len(small) // 2]),
                 (small[len(small) // 2], small[0])]
        for first, second in pairs:
            a = self.solve(first[1], first[2])
            b = self.solve(second[1], second[2])
            context = "two solvers at once (%s, then %s)" % (first[0], second[0])
            self.expect(self.api.label("moves"), context + ", the first", first[3], self.api.call(a, "moves"))
            self.expect(self.api.label("moves"), context + ", the second", second[3], self.api.call(b, "moves"))
            self.check_path(self.api.call(a, "solution"), first[1], first[2], first[3], context + ", the first")

    def t_solver_call_order(self) -> None:
        cases = [(c[0], c[1], c[2], c[3]) for c in self.solver_cases("files")[:4]]
        cases += [(name, tiles, n, -1) for name, tiles, n in self.unsolvable_cases()[:3]]
        for context, tiles, n, _moves in cases:
            a = self.solve(tiles, n)
            first = (self.api.call(a, "moves"), self.api.call(a, "isSolvable"))
            path_a = self.api.call(a, "solution")
            b = self.solve(tiles, n)
            path_b = self.api.call(b, "solution")
            second = (self.api.call(b, "moves"), self.api.call(b, "isSolvable"))
            again = (self.api.call(b, "moves"), self.api.call(b, "isSolvable"))
            if not (first == second == again):
                raise Fail("%s: moves()/isSolvable() gave %r when called first and %r after solution()" % (
                    context, first, second))
            if (path_a is None) != (path_b is None):
                raise Fail("%s: solution() depends on the order of the calls" % context)

    # operation counts: the reference board counts what the student's solver asks of it, or, for a solver
    # that reaches past the sheet's API, the student's own Board's methods are wrapped and counted --------
    def counted_solves(self) -> list[tuple[str, dict[str, int], Any]]:
        """(case, counts, an equals() example or None) for each counted file whose solve the judge found right.

        The counts are the worker's (untrusted): a solve counts only when its ``moves()`` was right and its
        CPU time, read from outside the worker, is within what the reference A* took in the same worker
        before any student code was loaded (:meth:`RemoteApi.counted`). Computed once per worker.
        """
        if self._counted is not None:
            return self._counted
        cases = self.solver_cases("files")[:self.spec.get("count_files", 8)]
        if not cases:
            raise Fail("no solvable board to count (a grader fault: the battery has generated boards)")
        counted = []
        for context, tiles, n, moves in cases:
            counts, far, found, problem = self.api.counted(tiles, n, self.substitute)
            self.expect(self.api.label("moves"), context, moves, found, tiles, n)
            if problem:
                raise Fail("%s: %s" % (context, problem))
            counted.append((context, counts, far))
        self._counted = counted
        return counted

    def t_timing_unused_methods(self) -> None:
        for context, counts, _example in self.counted_solves():
            if counts["hamming"] or counts["tostring"]:
                raise Fail("%s: the solver called hamming() %d times and toString() %d times; it should call "
                           "neither" % (context, counts["hamming"], counts["tostring"]))

    def t_timing_critical_optimization(self) -> None:
        for context, counts, example in self.counted_solves():
            if counts["far_equals"]:
                a, b, n = example
                raise Fail("%s: the solver compared boards with equals() %d times where the argument was neither "
                           "the same board nor a neighbour of a neighbour, e.g.\n%s\nwith\n%s\n(the critical "
                           "optimization compares a neighbour only with the previous search node's board)"
                           % (context, counts["far_equals"], show(a, n), show(b, n)))

    def t_timing_counts(self) -> None:
        limits = self.spec.get("count_limits", {})
        for context, counts, _example in self.counted_solves():
            limit = limits.get(context)
            if limit is None:
                continue
            if "queue" in limit and counts["queue"] > limit["queue"]:
                raise Fail("%s: the solver made %d priority-queue operations (heapq, queue.PriorityQueue inserts and "
                           "removals); at most %d allowed (%.1fx the reference A*'s %d)" % (
                               context, counts["queue"], limit["queue"], self.spec.get("count_factor", 2.0),
                               limit["reference_queue"]))
            for key, label in (("init", "Board()"), ("manhattan", "manhattan()"), ("equals", "equals()")):
                if counts[key] > limit[key]:
                    raise Fail("%s: %s was called %d times; at most %d allowed (%.1fx the reference A*'s %d)" % (
                        context, label, counts[key], limit[key], self.spec.get("count_factor", 2.0),
                        limit["reference_" + key]))

    def t_api_conformance(self) -> None:
        if getattr(self.api, "conformance", None) is not None:  # Java: constructors, return types and extra methods too
            if self.api.conformance:
                raise Fail("; ".join(self.api.conformance))
            return
        problems = []
        for member, candidates in self.api.missing:
            problems.append("%s has no %s" % ("Solver" if member in SOLVER_MEMBERS else "Board",
                                               " or ".join(c + "()" for c in candidates)))
        if problems:
            raise Fail("; ".join(problems))
