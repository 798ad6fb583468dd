/**
 * The course's test client, compiled in with submissions whose main is empty: it drives the
 * Princeton API (Board(int[][]), Solver(Board), isSolvable, moves, solution) and prints the answer.
 */
public class PuzzleChecker {
    public static void main(String[] args) {
        In in = new In(args[0]);
        int n = in.readInt();
        int[][] tiles = new int[n][n];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                tiles[i][j] = in.readInt();
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
