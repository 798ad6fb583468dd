import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The grader's test client for the Coursera "8 Puzzle" API: Board(int[][]), Solver(Board), isSolvable(),
 * moves(), solution(). It prints what the specification's client prints, and uses no algs4 class, so it
 * compiles against either edition of the library (or none) and in any package.
 */
public class CourseraTestClient {
    public static void main(String[] args) throws IOException {
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8).trim();
        String[] tokens = text.split("\\s+");
        int n = Integer.parseInt(tokens[0]);
        int[][] tiles = new int[n][n];
        for (int cell = 0; cell < n * n; cell++)
            tiles[cell / n][cell % n] = Integer.parseInt(tokens[cell + 1]);
        Solver solver = new Solver(new Board(tiles));
        StringBuilder out = new StringBuilder();
        if (!solver.isSolvable()) {
            out.append("No solution possible\n");
        } else {
            out.append("Minimum number of moves = ").append(solver.moves()).append('\n');
            for (Board board : solver.solution())
                out.append(board).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }
}
