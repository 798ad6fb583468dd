import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** The Board tests of the Java API harness; each throws NpzApiCore.Fail with the student's message. */
class NpzApiBoardTests {
    static final class Named {
        final String context;
        final int[] tiles;
        final int n;

        Named(String context, int[] tiles, int n) {
            this.context = context;
            this.tiles = tiles;
            this.n = n;
        }
    }

    final NpzApiReflect api;
    final NpzApiSpec spec;

    NpzApiBoardTests(NpzApiReflect api, NpzApiSpec spec) {
        this.api = api;
        this.spec = spec;
    }

    Object make(int[] tiles, int n) {
        return api.makeBoard(NpzApiCore.grid(tiles, n));
    }

    int[] tilesOf(Object board, int n, String context) {
        return NpzApiCore.parse(api.call(board, "toString"), n, context);
    }

    Random rng(String label) {
        return new Random((spec.seed + ":" + label).hashCode() * 31L + spec.seed);
    }

    int[] randomTiles(int n, String label, Boolean wantSolvable) {
        Random r = rng(label + ":" + n);
        while (true) {
            int[] t = new int[n * n];
            for (int i = 0; i < t.length; i++) {
                t[i] = i;
            }
            for (int i = t.length - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
            if (wantSolvable == null || NpzApiCore.solvable(t, n) == wantSolvable) {
                return t;
            }
        }
    }

    List<Named> randomBoards(String label, int... sizes) {
        List<Named> out = new ArrayList<>();
        for (int n : sizes.length == 0 ? spec.sizes : sizes) {
            out.add(new Named("random " + n + "x" + n + " board (seed " + spec.seed + ")", randomTiles(n, label, null), n));
        }
        return out;
    }

    List<Named> fileBoards(int limit) {
        List<Named> out = new ArrayList<>();
        for (NpzApiSpec.Puzzle p : spec.files) {
            if (p.n <= 10 && out.size() < limit) {
                out.add(new Named(p.name, p.tiles, p.n));
            }
        }
        return out;
    }

    static void expect(String what, String context, Object expected, Object found, int[] tiles, int n) {
        if (!expected.equals(found)) {
            String board = tiles != null && n <= 5 ? " for the board\n" + NpzApiCore.show(tiles, n) : "";
            throw new NpzApiCore.Fail(context + ": " + what + " returned " + found + ", expected " + expected + board);
        }
    }

    interface Reference {
        Object of(int[] t, int n);
    }

    void scalar(String method, Reference ref, List<Named> boards) {
        for (Named b : boards) {
            expect(method + "()", b.context, ref.of(b.tiles, b.n), api.call(make(b.tiles, b.n), method), b.tiles, b.n);
        }
    }

    void hammingFiles() {
        scalar("hamming", NpzApiCore::hamming, fileBoards(6));
    }

    void hammingRandom() {
        scalar("hamming", NpzApiCore::hamming, randomBoards("hamming"));
    }

    void manhattanFiles() {
        scalar("manhattan", NpzApiCore::manhattan, fileBoards(6));
    }

    void manhattanRandom() {
        scalar("manhattan", NpzApiCore::manhattan, randomBoards("manhattan"));
    }

    void dimension() {
        scalar("dimension", (t, n) -> n, randomBoards("dimension", 2, 3, 4, 5, 6));
    }

    void toStrings(List<Named> boards) {
        for (Named b : boards) {
            int[] shown = tilesOf(make(b.tiles, b.n), b.n, b.context);
            if (!Arrays.equals(shown, b.tiles)) {
                throw new NpzApiCore.Fail(b.context + ": toString() shows\n" + NpzApiCore.show(shown, b.n)
                        + "\nbut the board is\n" + NpzApiCore.show(b.tiles, b.n));
            }
        }
    }

    void tostringFiles() {
        toStrings(fileBoards(6));
    }

    void tostringRandom() {
        toStrings(randomBoards("tostring"));
    }

    List<Object> iterate(Object got, String context, String method) {
        if (!(got instanceof Iterable)) {
            throw new NpzApiCore.Fail(context + ": " + method + "() returned null");
        }
        List<Object> out = new ArrayList<>();
        for (Object o : (Iterable<?>) got) {
            out.add(o);
            if (out.size() > 100000) {
                throw new NpzApiCore.Fail(context + ": " + method + "() returned more than 100000 boards");
            }
        }
        return out;
    }

    void neighbors(Object board, int[] tiles, int n, String context, int depth) {
        List<Object> boards = iterate(api.call(board, "neighbors"), context, "neighbors");
        List<int[]> shown = new ArrayList<>();
        for (Object b : boards) {
            shown.add(tilesOf(b, n, context + ", a neighbour"));
        }
        List<int[]> expected = NpzApiCore.neighbors(tiles, n);
        List<String> extra = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (int[] s : shown) {
            if (!NpzApiCore.contains(expected, s)) {
                extra.add(NpzApiCore.oneLine(s, n));
            }
        }
        for (int[] e : expected) {
            if (!NpzApiCore.contains(shown, e)) {
                missing.add(NpzApiCore.oneLine(e, n));
            }
        }
        if (!extra.isEmpty() || !missing.isEmpty() || shown.size() != expected.size()) {
            throw new NpzApiCore.Fail(context + ": neighbors() returned " + shown.size() + " boards, expected "
                    + expected.size() + (extra.isEmpty() ? "" : "; not neighbours: " + String.join("; ", extra))
                    + (missing.isEmpty() ? "; a board repeated" : "; missing: " + String.join("; ", missing)));
        }
        if (depth > 1) {
            for (int i = 0; i < boards.size(); i++) {
                neighbors(boards.get(i), shown.get(i), n, context + ", neighbour " + NpzApiCore.oneLine(shown.get(i), n),
                        depth - 1);
            }
        }
    }

    void neighborsOf(List<Named> boards, int depth) {
        for (Named b : boards) {
            neighbors(make(b.tiles, b.n), b.tiles, b.n, b.context, depth);
        }
    }

    void neighborsFiles() {
        neighborsOf(fileBoards(6), 1);
    }

    void neighborsRandom() {
        neighborsOf(randomBoards("neighbors"), 1);
    }

    void neighborsOfNeighbors() {
        List<Named> boards = fileBoards(6);
        boards.addAll(randomBoards("nn", 2, 3, 4, 5, 9, 10));
        neighborsOf(boards, 2);
    }

    void twins(List<Named> boards) {
        for (Named b : boards) {
            int[] shown = tilesOf(api.call(make(b.tiles, b.n), "twin"), b.n, b.context + ", its twin");
            List<Integer> diff = new ArrayList<>();
            for (int i = 0; i < shown.length; i++) {
                if (shown[i] != b.tiles[i]) {
                    diff.add(i);
                }
            }
            boolean ok = diff.size() == 2 && shown[diff.get(0)] == b.tiles[diff.get(1)]
                    && shown[diff.get(1)] == b.tiles[diff.get(0)] && b.tiles[diff.get(0)] != 0 && b.tiles[diff.get(1)] != 0;
            if (!ok) {
                throw new NpzApiCore.Fail(b.context + ": twin() must swap exactly two tiles, neither of them the blank;"
                        + " the board\n" + NpzApiCore.show(b.tiles, b.n) + "\ngave the twin\n" + NpzApiCore.show(shown, b.n));
            }
        }
    }

    void twinFiles() {
        twins(fileBoards(6));
    }

    void twinRandom() {
        List<Named> boards = randomBoards("twin", 2, 3, 4, 5, 9, 10);
        boards.add(new Named("a 3x3 board with the blank at row 1, column 1", new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, 3));
        boards.add(new Named("a 3x3 board with the blank at row 1, column 2", new int[] {1, 0, 2, 3, 4, 5, 6, 7, 8}, 3));
        twins(boards);
    }

    void isgoalFiles() {
        scalar("isGoal", (t, n) -> Arrays.equals(t, NpzApiCore.goal(n)), fileBoards(10));
    }

    void isgoalBoards() {
        List<Named> boards = new ArrayList<>();
        for (int n : new int[] {2, 3, 4, 5, 6, 100}) {
            boards.add(new Named("the " + n + "x" + n + " goal", NpzApiCore.goal(n), n));
            for (int[] t : NpzApiCore.neighbors(NpzApiCore.goal(n), n)) {
                boards.add(new Named("a " + n + "x" + n + " board one move from the goal", t, n));
            }
        }
        scalar("isGoal", (t, n) -> Arrays.equals(t, NpzApiCore.goal(n)), boards);
    }

    void twoAtOnce() {
        int[][] pairs = {{3, 3}, {4, 4}, {2, 2}, {3, 4}, {4, 3}};
        for (int[] p : pairs) {
            int[] a = randomTiles(p[0], "two-a", null);
            int[] b = randomTiles(p[1], "two-b" + p[0], null);
            Object first = make(a, p[0]);
            Object second = make(b, p[1]);
            String context = "a random " + p[0] + "x" + p[0] + " board created before a " + p[1] + "x" + p[1]
                    + " one (seed " + spec.seed + ")";
            expect("dimension()", context, p[0], api.call(first, "dimension"), null, 0);
            expect("hamming()", context, NpzApiCore.hamming(a, p[0]), api.call(first, "hamming"), a, p[0]);
            expect("manhattan()", context, NpzApiCore.manhattan(a, p[0]), api.call(first, "manhattan"), a, p[0]);
            if (!Arrays.equals(tilesOf(first, p[0], context), a)) {
                throw new NpzApiCore.Fail(context + ": toString() of the first board changed after the second was created");
            }
            if (!Arrays.equals(tilesOf(second, p[1], context), b)) {
                throw new NpzApiCore.Fail(context + ": toString() of the second board is wrong");
            }
        }
    }

    static final Comparator<int[]> ORDER = Arrays::compare;
}
