import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** The Board tests on equals(), immutability, call order and derived boards (Java API harness). */
class NpzApiBoardMore extends NpzApiBoardTests {
    NpzApiBoardMore(NpzApiReflect api, NpzApiSpec spec) {
        super(api, spec);
    }

    Object eq(Object a, Object b) {
        return api.call(a, "equals", b);
    }

    void equalsProperties() {
        int[] tiles = randomTiles(3, "equals", null);
        Object a = make(tiles, 3);
        Object b = make(tiles, 3);
        Object c = make(tiles, 3);
        Object[][] checks = {
            {"reflexive: a.equals(a)", a, a, true}, {"symmetric: a.equals(b)", a, b, true},
            {"symmetric: b.equals(a)", b, a, true}, {"transitive: b.equals(c)", b, c, true},
            {"transitive: a.equals(c)", a, c, true}, {"argument is null", a, null, false},
            {"argument is of type String", a, "3\n1 2 3\n4 5 6\n7 8 0", false},
            {"argument is of type int[][]", a, NpzApiCore.grid(tiles, 3), false},
        };
        for (Object[] check : checks) {
            Object found;
            try {
                found = eq(check[1], check[2]);
            } catch (NpzApiReflect.Raised e) {
                throw new NpzApiCore.Fail("equals(), " + check[0] + ": threw " + NpzApiCore.describe(e.cause)
                        + "; expected " + check[3]);
            }
            if (!check[3].equals(found)) {
                throw new NpzApiCore.Fail("equals(), " + check[0] + ": returned " + found + ", expected " + check[3]
                        + " (boards made from the same 3x3 tiles, seed " + spec.seed + ")");
            }
        }
    }

    void equalsRandom() {
        for (int n : new int[] {2, 3, 4, 5, 7, 9}) {
            int[] tiles = randomTiles(n, "eqr", null);
            String context = "random " + n + "x" + n + " boards (seed " + spec.seed + ")";
            if (!Boolean.TRUE.equals(eq(make(tiles, n), make(tiles, n)))) {
                throw new NpzApiCore.Fail(context + ": two boards of the same tiles: equals() returned false");
            }
            List<int[]> others = new ArrayList<>(NpzApiCore.neighbors(tiles, n).subList(0, 2));
            others.add(randomTiles(n, "eqr-other", null));
            for (int[] other : others) {
                if (!Arrays.equals(other, tiles) && !Boolean.FALSE.equals(eq(make(tiles, n), make(other, n)))) {
                    throw new NpzApiCore.Fail(context + ": boards that differ: equals() returned true for\n"
                            + NpzApiCore.show(tiles, n) + "\nand\n" + NpzApiCore.show(other, n));
                }
            }
        }
    }

    void equalsSizes() {
        int[][] pairs = {{4, 5}, {2, 5}, {5, 3}, {2, 3}, {3, 2}};
        for (int[] p : pairs) {
            int small = Math.min(p[0], p[1]);
            int big = Math.max(p[0], p[1]);
            int[] corner = randomTiles(small, "eqs-" + p[0] + "-" + p[1], null);
            List<Integer> rest = new ArrayList<>();
            for (int v = small * small; v < big * big; v++) {
                rest.add(v);
            }
            java.util.Collections.shuffle(rest, new Random(spec.seed + p[0] * 7L + p[1]));
            int[] large = new int[big * big];
            for (int r = 0; r < big; r++) {
                for (int c = 0; c < big; c++) {
                    large[r * big + c] = r < small && c < small ? corner[r * small + c] : rest.remove(rest.size() - 1);
                }
            }
            Object a = p[0] < p[1] ? make(corner, small) : make(large, big);
            Object b = p[0] < p[1] ? make(large, big) : make(corner, small);
            Object found = eq(a, b);
            if (!Boolean.FALSE.equals(found)) {
                throw new NpzApiCore.Fail("equals() of a " + p[0] + "x" + p[0] + " board and a " + p[1] + "x" + p[1]
                        + " board returned " + found + ", expected false (the smaller board is the larger one's"
                        + " top-left corner; seed " + spec.seed + ")");
            }
        }
    }

    void immutableArray() {
        for (int n : new int[] {2, 3, 4, 10}) {
            int[] tiles = randomTiles(n, "immutable", null);
            int[][] grid = NpzApiCore.grid(tiles, n);
            Object board = api.makeBoard(grid);
            int x = grid[0][0];
            grid[0][0] = grid[n - 1][n - 1];
            grid[n - 1][n - 1] = x;
            grid[0] = new int[n];
            String context = "a " + n + "x" + n + " board whose argument array was changed after construction (seed "
                    + spec.seed + ")";
            if (!Arrays.equals(tilesOf(board, n, context), tiles)) {
                throw new NpzApiCore.Fail(context + ": toString() shows the change: the constructor must copy the array");
            }
            expect("hamming()", context, NpzApiCore.hamming(tiles, n), api.call(board, "hamming"), null, 0);
            expect("manhattan()", context, NpzApiCore.manhattan(tiles, n), api.call(board, "manhattan"), null, 0);
        }
    }

    String observe(Object board, int n, String member) {
        Object value = api.call(board, member);
        if (member.equals("neighbors")) {
            List<String> shown = new ArrayList<>();
            for (Object b : iterate(value, "call order", member)) {
                shown.add(Arrays.toString(tilesOf(b, n, "call order")));
            }
            java.util.Collections.sort(shown);
            return shown.toString();
        }
        if (member.equals("twin")) {
            return Arrays.toString(tilesOf(value, n, "call order"));
        }
        if (member.equals("toString")) {
            return Arrays.toString(NpzApiCore.parse(value, n, "call order"));
        }
        return String.valueOf(value);
    }

    void callOrder() {
        String[] order = {"toString", "hamming", "manhattan", "isGoal", "dimension", "twin", "neighbors"};
        List<Named> boards = new ArrayList<>();
        for (NpzApiSpec.Puzzle p : spec.files) {
            if (p.n <= 5 && boards.size() < 3) {
                boards.add(new Named(p.name, p.tiles, p.n));
            }
        }
        boards.addAll(randomBoards("order", 2, 3, 4));
        for (Named b : boards) {
            Object first = make(b.tiles, b.n);
            Object second = make(b.tiles, b.n);
            String[] one = new String[order.length];
            String[] two = new String[order.length];
            for (int i = 0; i < order.length; i++) {
                one[i] = observe(first, b.n, order[i]);
            }
            for (int i = order.length - 1; i >= 0; i--) {
                two[i] = observe(second, b.n, order[i]);
            }
            for (int i = 0; i < order.length; i++) {
                String again = observe(first, b.n, order[i]);
                if (!one[i].equals(two[i]) || !one[i].equals(again)) {
                    throw new NpzApiCore.Fail(b.context + ": " + order[i] + "() gave different results depending on"
                            + " which methods were called before it (" + shorten(one[i]) + ", then " + shorten(two[i]) + ")");
                }
            }
        }
    }

    static String shorten(String s) {
        return s.length() < 120 ? s : s.substring(0, 117) + "...";
    }

    void derived() {
        List<Named> sources = new ArrayList<>();
        for (NpzApiSpec.Puzzle p : spec.files) {
            if (p.n <= 5 && sources.size() < 3) {
                sources.add(new Named(p.name, p.tiles, p.n));
            }
        }
        for (Named s : sources) {
            Object board = make(s.tiles, s.n);
            for (int k = 1; k < 14; k++) {
                board = iterate(api.call(board, "neighbors"), s.context, "neighbors").get(0);
                check(board, s.n, "neighbour " + k + " of " + s.context, true);
            }
            board = make(s.tiles, s.n);
            for (int k = 1; k < 14; k++) {
                board = api.call(board, "twin");
                check(board, s.n, "twin " + k + " of " + s.context, false);
            }
        }
    }

    private void check(Object board, int n, String where, boolean dimension) {
        int[] current = tilesOf(board, n, where);
        if (dimension) {
            expect("dimension()", where, n, api.call(board, "dimension"), null, 0);
        }
        expect("hamming()", where, NpzApiCore.hamming(current, n), api.call(board, "hamming"), current, n);
        expect("manhattan()", where, NpzApiCore.manhattan(current, n), api.call(board, "manhattan"), current, n);
    }
}
