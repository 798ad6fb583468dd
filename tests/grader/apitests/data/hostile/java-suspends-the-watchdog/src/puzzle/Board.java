package puzzle;

import java.util.ArrayList;
import java.util.List;

/**
 * The correct sample Board, except that hamming() on boards of 9x9 and up suspends every other thread of the JVM
 * (the worker's watchdog among them) and then never returns: only the judge, from outside, can end it.
 */
public final class Board {
    private final char[] tiles;
    private final int n;

    public Board(int[][] grid) {
        n = grid.length;
        tiles = new char[n * n];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                tiles[r * n + c] = (char) grid[r][c];
            }
        }
    }

    private Board(char[] tiles, int n) {
        this.tiles = tiles;
        this.n = n;
    }

    public String toString() {
        StringBuilder s = new StringBuilder();
        s.append(n).append('\n');
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                s.append(String.format("%2d ", (int) tiles[r * n + c]));
            }
            s.append('\n');
        }
        return s.toString();
    }

    public int dimension() {
        return n;
    }

    @SuppressWarnings({"deprecation", "removal"})
    public int hamming() {
        if (n >= 9) {
            for (Thread other : Thread.getAllStackTraces().keySet()) {
                if (other != Thread.currentThread()) {
                    other.suspend();
                }
            }
        }
        while (n >= 9) {
            Thread.onSpinWait();
        }
        int h = 0;
        for (int i = 0; i < tiles.length; i++) {
            if (tiles[i] != 0 && tiles[i] != i + 1) {
                h++;
            }
        }
        return h;
    }

    public int manhattan() {
        int m = 0;
        for (int i = 0; i < tiles.length; i++) {
            int t = tiles[i];
            if (t != 0) {
                m += Math.abs(i / n - (t - 1) / n) + Math.abs(i % n - (t - 1) % n);
            }
        }
        return m;
    }

    public boolean isGoal() {
        for (int i = 0; i < tiles.length - 1; i++) {
            if (tiles[i] != i + 1) {
                return false;
            }
        }
        return tiles[tiles.length - 1] == 0;
    }

    public boolean equals(Object y) {
        if (y == this) {
            return true;
        }
        if (y == null || y.getClass() != getClass()) {
            return false;
        }
        Board that = (Board) y;
        return that.n == n && java.util.Arrays.equals(that.tiles, tiles);
    }

    public Iterable<Board> neighbors() {
        int blank = 0;
        while (tiles[blank] != 0) {
            blank++;
        }
        int r = blank / n;
        int c = blank % n;
        List<Board> out = new ArrayList<>();
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] s : steps) {
            int rr = r + s[0];
            int cc = c + s[1];
            if (rr >= 0 && rr < n && cc >= 0 && cc < n) {
                char[] t = tiles.clone();
                t[blank] = t[rr * n + cc];
                t[rr * n + cc] = 0;
                out.add(new Board(t, n));
            }
        }
        return out;
    }

    public Board twin() {
        char[] t = tiles.clone();
        int i = t[0] != 0 && t[1] != 0 ? 0 : n;
        char x = t[i];
        t[i] = t[i + 1];
        t[i + 1] = x;
        return new Board(t, n);
    }

    public static void main(String[] args) {
        System.out.println(new Board(new int[][] {{1, 2}, {3, 0}}));
    }
}
