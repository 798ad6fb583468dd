import java.util.ArrayList;
import java.util.List;

/** A correct Board in the default package that keeps an int[][] copy, the sheet's usual layout (200 bytes at 3x3). */
public class Board {
    private final int[][] tiles;
    private final int n;

    public Board(int[][] tiles) {
        n = tiles.length;
        this.tiles = new int[n][];
        for (int r = 0; r < n; r++) {
            this.tiles[r] = tiles[r].clone();
        }
    }

    public String toString() {
        StringBuilder s = new StringBuilder().append(n).append('\n');
        for (int[] row : tiles) {
            for (int t : row) {
                s.append(String.format("%2d ", t));
            }
            s.append('\n');
        }
        return s.toString();
    }

    public int dimension() {
        return n;
    }

    public int hamming() {
        int h = 0;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (tiles[r][c] != 0 && tiles[r][c] != r * n + c + 1) {
                    h++;
                }
            }
        }
        return h;
    }

    public int manhattan() {
        int m = 0;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                int t = tiles[r][c];
                if (t != 0) {
                    m += Math.abs(r - (t - 1) / n) + Math.abs(c - (t - 1) % n);
                }
            }
        }
        return m;
    }

    public boolean isGoal() {
        return hamming() == 0 && tiles[n - 1][n - 1] == 0;
    }

    public boolean equals(Object y) {
        if (!(y instanceof Board)) {
            return false;
        }
        Board that = (Board) y;
        return that.n == n && java.util.Arrays.deepEquals(that.tiles, tiles);
    }

    public Iterable<Board> neighbors() {
        int br = 0;
        int bc = 0;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (tiles[r][c] == 0) {
                    br = r;
                    bc = c;
                }
            }
        }
        List<Board> out = new ArrayList<>();
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] s : steps) {
            int r = br + s[0];
            int c = bc + s[1];
            if (r >= 0 && r < n && c >= 0 && c < n) {
                Board b = new Board(tiles);
                b.tiles[br][bc] = b.tiles[r][c];
                b.tiles[r][c] = 0;
                out.add(b);
            }
        }
        return out;
    }

    public Board twin() {
        Board b = new Board(tiles);
        int r = tiles[0][0] != 0 && tiles[0][1] != 0 ? 0 : 1;
        int x = b.tiles[r][0];
        b.tiles[r][0] = b.tiles[r][1];
        b.tiles[r][1] = x;
        return b;
    }
}
