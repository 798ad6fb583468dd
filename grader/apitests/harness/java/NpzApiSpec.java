import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The battery as the grader sends it on stdin, one item a line (grader/apitests/java.py writes it):
 * nonce, seed, seconds, board and solver class names, sizes, the test names, the case files and
 * the random boards of known depth.
 */
final class NpzApiSpec {
    static final class Puzzle {
        final String name;
        final int n;
        final Boolean solvable;
        final int moves;
        final int[] tiles;

        Puzzle(String name, int n, Boolean solvable, int moves, int[] tiles) {
            this.name = name;
            this.n = n;
            this.solvable = solvable;
            this.moves = moves;
            this.tiles = tiles;
        }
    }

    String nonce = "";
    long seed;
    double seconds = 10;
    int maxFileMoves = 20;
    String board;
    String solver;
    /** The folder holding the reference Board compiled under the student's Board's name, if it compiled. */
    String refBoard;
    /** Per counted file: the most calls allowed of Board(), equals() and manhattan(), the reference's count,
     * then the most priority-queue operations allowed and the reference's. */
    final java.util.Map<String, long[]> limits = new java.util.HashMap<>();
    int[] sizes = {2, 3, 4, 5, 9, 10, 127};
    final List<String> tests = new ArrayList<>();
    final List<Integer> solverSizes = new ArrayList<>(java.util.Arrays.asList(2, 3, 4, 5));
    final java.util.Map<String, Double> slow = new java.util.HashMap<>();
    final List<Puzzle> files = new ArrayList<>();
    final List<Puzzle> depths = new ArrayList<>();
    final List<Puzzle> unsolvable = new ArrayList<>();
    /** The peak-memory test's boards. */
    final List<Puzzle> peaks = new ArrayList<>();

    static NpzApiSpec read() throws IOException {
        NpzApiSpec spec = new NpzApiSpec();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] p = line.trim().split("\\s+");
            switch (p[0]) {
                case "nonce": spec.nonce = p[1]; break;
                case "seed": spec.seed = Long.parseLong(p[1]); break;
                case "seconds": spec.seconds = Double.parseDouble(p[1]); break;
                case "max_file_moves": spec.maxFileMoves = Integer.parseInt(p[1]); break;
                case "board": spec.board = p[1]; break;
                case "solver": spec.solver = p[1]; break;
                case "refboard": spec.refBoard = p[1]; break;
                case "limit":
                    long[] limit = new long[p.length - 2];
                    for (int i = 2; i < p.length; i++) {
                        limit[i - 2] = Long.parseLong(p[i]);
                    }
                    spec.limits.put(p[1], limit);
                    break;
                case "test": spec.tests.add(p[1]); break;
                case "slow": spec.slow.put(p[1], Double.parseDouble(p[2])); break;
                case "solver_sizes":
                    spec.solverSizes.clear();
                    for (int i = 1; i < p.length; i++) {
                        spec.solverSizes.add(Integer.parseInt(p[i]));
                    }
                    break;
                case "sizes":
                    spec.sizes = new int[p.length - 1];
                    for (int i = 1; i < p.length; i++) {
                        spec.sizes[i - 1] = Integer.parseInt(p[i]);
                    }
                    break;
                case "file": spec.files.add(puzzle(p[1], p, 2)); break;
                case "depth": spec.depths.add(puzzle(null, p, 1)); break;
                case "unsolvable": spec.unsolvable.add(puzzle(null, p, 1)); break;
                case "peak": spec.peaks.add(puzzle(null, p, 1)); break;
                default: break;
            }
        }
        return spec;
    }

    /** "file NAME N SOLVABLE MOVES tiles..." or "depth N SOLVABLE MOVES tiles...". */
    private static Puzzle puzzle(String name, String[] p, int at) {
        int n = Integer.parseInt(p[at]);
        Boolean solvable = p[at + 1].equals("-") ? null : p[at + 1].equals("1");
        int moves = Integer.parseInt(p[at + 2]);
        int[] tiles = new int[n * n];
        for (int i = 0; i < n * n; i++) {
            tiles[i] = Integer.parseInt(p[at + 3 + i]);
        }
        String label = name != null ? name
                : "a " + n + "x" + n + " board " + moves + " moves from the goal";
        return new Puzzle(label, n, solvable, moves, tiles);
    }
}
