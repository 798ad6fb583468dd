/**
 * A course client of the pre-2015 kind, written for these tests: the unnamed-package In and StdOut with no
 * import, and the Coursera API. Only the unnamed package can see In, so the grader keeps this file there and
 * imports a packaged submission's classes.
 */
public class PuzzleChecker {
    public static void main(String[] args) {
        In in = new In(args[0]);
        int n = in.readInt();
        int[][] tiles = new int[n][n];
        for (int row = 0; row < n; row++)
            for (int col = 0; col < n; col++)
                tiles[row][col] = in.readInt();
        Solver solver = new Solver(new Board(tiles));
        if (!solver.isSolvable()) {
            StdOut.println("No solution possible");
            return;
        }
        StdOut.println("Minimum number of moves = " + solver.moves());
        for (Board board : solver.solution())
            StdOut.println(board);
    }
}
