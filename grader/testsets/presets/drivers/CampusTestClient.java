import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The grader's test client for the COS 226 campus "8 Puzzle" API: Board(int[][]), Board.isSolvable(),
 * Solver(Board), moves(), solution(). It prints what the specification's client prints, and uses no algs4
 * class, so it compiles against either edition of the library (or none) and in any package.
 */
public class CampusTestClient {
    public static void main(String[] args) throws IOException {
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8).trim();
        String[] tokens = text.split("\\s+");
        int n = Integer.parseInt(tokens[0]);
        int[][] tiles = new int[n][n];
        for (int cell = 0; cell < n * n; cell++)
            tiles[cell / n][cell % n] = Integer.parseInt(tokens[cell + 1]);
        Board initial = new Board(tiles);
        StringBuilder out = new StringBuilder();
        if (!initial.isSolvable()) {
            out.append("Unsolvable puzzle\n");
        } else {
            Solver solver = new Solver(initial);
            out.append("Minimum number of moves = ").append(solver.moves()).append('\n');
            for (Board board : solver.solution())
                out.append(board).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }
}
