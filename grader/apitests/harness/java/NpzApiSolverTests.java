import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The Solver, memory and conformance tests of the Java API harness. */
class NpzApiSolverTests extends NpzApiBoardMore {
    static final class Case {
        final String context;
        final int[] tiles;
        final int n;
        final int moves;

        Case(String context, int[] tiles, int n, int moves) {
            this.context = context;
            this.tiles = tiles;
            this.n = n;
            this.moves = moves;
        }
    }

    /** Solver tests run on this Board class (the reference one when it is substituted). */
    NpzApiReflect solverApi;

    NpzApiSolverTests(NpzApiReflect api, NpzApiSpec spec) {
        super(api, spec);
        solverApi = api;
    }

    Object solve(int[] tiles, int n) {
        return solverApi.makeSolver(solverApi.makeBoard(NpzApiCore.grid(tiles, n)));
    }

    List<Case> cases(boolean files) {
        List<Case> out = new ArrayList<>();
        for (NpzApiSpec.Puzzle p : files ? spec.files : spec.depths) {
            boolean ok = !files || Boolean.TRUE.equals(p.solvable) && p.moves >= 0 && p.moves <= spec.maxFileMoves
                    && spec.solverSizes.contains(p.n);
            if (ok) {
                out.add(new Case(files ? p.name : p.name + " (seed " + spec.seed + ")", p.tiles, p.n, p.moves));
            }
        }
        return out;
    }

    void checkMoves(List<Case> cases) {
        for (Case c : cases) {
            expect("moves()", c.context, c.moves, solverApi.call(solve(c.tiles, c.n), "moves"), c.tiles, c.n);
        }
    }

    void checkSolution(List<Case> cases) {
        for (Case c : cases) {
            checkPath(solverApi.call(solve(c.tiles, c.n), "solution"), c);
        }
    }

    void checkPath(Object path, Case c) {
        if (path == null) {
            throw new NpzApiCore.Fail(c.context + ": solution() returned null for a solvable board");
        }
        List<int[]> shown = new ArrayList<>();
        for (Object b : iterate(path, c.context, "solution")) {
            shown.add(NpzApiCore.parse(solverApi.call(b, "toString"), c.n, c.context + ", board " + shown.size()
                    + " of the solution"));
        }
        if (shown.size() != c.moves + 1) {
            throw new NpzApiCore.Fail(c.context + ": solution() holds " + shown.size() + " boards, expected "
                    + (c.moves + 1) + " (the initial board, then one per move of a shortest solution)");
        }
        if (!Arrays.equals(shown.get(0), c.tiles)) {
            throw new NpzApiCore.Fail(c.context + ": solution() must start with the initial board, found\n"
                    + NpzApiCore.show(shown.get(0), c.n));
        }
        if (!Arrays.equals(shown.get(shown.size() - 1), NpzApiCore.goal(c.n))) {
            throw new NpzApiCore.Fail(c.context + ": solution() must end with the goal board, found\n"
                    + NpzApiCore.show(shown.get(shown.size() - 1), c.n));
        }
        for (int i = 1; i < shown.size(); i++) {
            if (!NpzApiCore.contains(NpzApiCore.neighbors(shown.get(i - 1), c.n), shown.get(i))) {
                throw new NpzApiCore.Fail(c.context + ": solution(), boards " + i + " and " + (i + 1)
                        + " are not one move apart:\n" + NpzApiCore.show(shown.get(i - 1), c.n) + "\nthen\n"
                        + NpzApiCore.show(shown.get(i), c.n));
            }
        }
    }

    void movesFiles() {
        checkMoves(cases(true));
    }

    void solutionFiles() {
        checkSolution(cases(true));
    }

    void movesRandom() {
        checkMoves(cases(false));
    }

    void solutionRandom() {
        checkSolution(cases(false));
    }

    List<Named> unsolvable() {
        List<Named> out = new ArrayList<>();
        for (NpzApiSpec.Puzzle p : spec.files) {
            if (Boolean.FALSE.equals(p.solvable) && p.n <= 3 && spec.solverSizes.contains(p.n)) {
                out.add(new Named(p.name, p.tiles, p.n));
            }
        }
        for (NpzApiSpec.Puzzle p : spec.unsolvable) {
            out.add(new Named("an unsolvable " + p.n + "x" + p.n + " board (seed " + spec.seed + "):\n"
                    + NpzApiCore.show(p.tiles, p.n), p.tiles, p.n));
        }
        return out;
    }

    void issolvable() {
        List<Case> solvable = cases(true);
        for (Case c : solvable.subList(0, Math.min(6, solvable.size()))) {
            expect("isSolvable()", c.context, true, solverApi.call(solve(c.tiles, c.n), "isSolvable"), c.tiles, c.n);
        }
        for (Named b : unsolvable()) {
            expect("isSolvable()", b.context, false, solverApi.call(solve(b.tiles, b.n), "isSolvable"), b.tiles, b.n);
        }
    }

    void unsolvableBoards() {
        for (Named b : unsolvable()) {
            Object solver = solve(b.tiles, b.n);
            expect("moves()", b.context, -1, solverApi.call(solver, "moves"), b.tiles, b.n);
            Object path = solverApi.call(solver, "solution");
            if (path != null) {
                throw new NpzApiCore.Fail(b.context + ": solution() returned " + path.getClass().getSimpleName()
                        + " for an unsolvable board, expected null");
            }
        }
    }

    void nullBoard() {
        try {
            api.makeSolver(null);
        } catch (NpzApiReflect.Raised e) {
            if (e.cause instanceof IllegalArgumentException) {
                return;
            }
            throw new NpzApiCore.Fail("new Solver(null) threw " + NpzApiCore.describe(e.cause)
                    + "; the sheet asks for an IllegalArgumentException");
        }
        throw new NpzApiCore.Fail("new Solver(null) returned normally; the sheet asks for an IllegalArgumentException");
    }

    void twoAtOnceSolvers() {
        List<Case> all = cases(true);
        if (all.size() < 2) {
            return;
        }
        all.sort((a, b) -> Integer.compare(a.moves, b.moves));
        Case mid = all.get(all.size() / 2);
        Case low = all.get(0);
        Case[][] pairs = {{mid, mid}, {low, mid}, {mid, low}};
        for (Case[] p : pairs) {
            Object a = solve(p[0].tiles, p[0].n);
            Object b = solve(p[1].tiles, p[1].n);
            String context = "two solvers at once (" + p[0].context + ", then " + p[1].context + ")";
            expect("moves()", context + ", the first", p[0].moves, solverApi.call(a, "moves"), null, 0);
            expect("moves()", context + ", the second", p[1].moves, solverApi.call(b, "moves"), null, 0);
            checkPath(solverApi.call(a, "solution"), p[0]);
        }
    }

    void callOrderSolver() {
        List<Case> all = cases(true);
        List<Case> chosen = new ArrayList<>(all.subList(0, Math.min(4, all.size())));
        List<Named> unsolvable = unsolvable();
        for (Named b : unsolvable.subList(0, Math.min(3, unsolvable.size()))) {
            chosen.add(new Case(b.context, b.tiles, b.n, -1));
        }
        for (Case c : chosen) {
            Object a = solve(c.tiles, c.n);
            String first = solverApi.call(a, "moves") + "/" + solverApi.call(a, "isSolvable");
            Object pathA = solverApi.call(a, "solution");
            Object b = solve(c.tiles, c.n);
            Object pathB = solverApi.call(b, "solution");
            String second = solverApi.call(b, "moves") + "/" + solverApi.call(b, "isSolvable");
            String again = solverApi.call(b, "moves") + "/" + solverApi.call(b, "isSolvable");
            if (!first.equals(second) || !second.equals(again)) {
                throw new NpzApiCore.Fail(c.context + ": moves()/isSolvable() gave " + first + " when called first and "
                        + second + " after solution()");
            }
            if ((pathA == null) != (pathB == null)) {
                throw new NpzApiCore.Fail(c.context + ": solution() depends on the order of the calls");
            }
        }
    }

    void memory() {
        if (!NpzApiAgent.ready()) {
            throw new IllegalStateException("the memory agent is not loaded (a grader fault)");
        }
        for (int n : new int[] {2, 3, 4, 8, 12, 16, 20, 37, 72, 120}) {
            long bytes = NpzApiAgent.deepSize(make(randomTiles(n, "memory", null), n));
            // The sheet's 4n^2 + 32n + 64, plus the 8-byte alignment of up to n + 1 arrays (an int[][] board of odd
            // n pads each row by 4 bytes: 200 bytes at n = 3, which the assessment passes).
            long bound = 4L * n * n + 32L * n + 64 + 4L * (n + 1);
            if (bytes > bound) {
                throw new NpzApiCore.Fail("a " + n + "x" + n + " Board takes " + bytes + " bytes; the sheet allows at most"
                        + " 4n^2 + 32n + 64 (+ alignment) = " + bound + " (64-bit, uncompressed references; seed "
                        + spec.seed + ")");
            }
        }
    }

    void solverMemory() {
        if (!NpzApiAgent.ready()) {
            throw new IllegalStateException("the memory agent is not loaded (a grader fault)");
        }
        List<Case> all = cases(true);
        all.sort((a, b) -> Integer.compare(b.moves, a.moves));
        for (Case c : all.subList(0, Math.min(4, all.size()))) {
            Object solver = solve(c.tiles, c.n);
            solverApi.call(solver, "moves");
            long bytes = NpzApiAgent.deepSize(solver);
            long board = NpzApiAgent.deepSize(solverApi.makeBoard(NpzApiCore.grid(c.tiles, c.n)));
            long bound = 2 * (c.moves + 1) * (board + 32) + 4096;
            if (bytes > bound) {
                throw new NpzApiCore.Fail(c.context + " (" + c.moves + " moves): the solved Solver takes " + bytes
                        + " bytes, more than twice its solution's " + (c.moves + 1) + " boards and nodes + 4096 = "
                        + bound + ": does it keep its priority queue or search nodes?");
            }
        }
    }

    void conformance() {
        List<String> all = new ArrayList<>(api.problems);
        if (!api.extras.isEmpty()) {
            all.add("public methods the sheet does not list: " + String.join(", ", api.extras));
        }
        if (!all.isEmpty()) {
            throw new NpzApiCore.Fail(String.join("; ", all));
        }
    }
}
