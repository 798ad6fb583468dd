import java.util.ArrayList;
import java.util.Arrays;

public class Board {
    private final int[][] tiles;
    private final int n;

    public Board(int[][] tiles) {
        n = tiles.length;
        this.tiles = new int[n][];
        for (int i = 0; i < n; i++) this.tiles[i] = tiles[i].clone();
    }

    public String toString() {
        StringBuilder s = new StringBuilder(n + "\n");
        for (int[] row : tiles) {
            for (int t : row) s.append(String.format("%2d ", t));
            s.append("\n");
        }
        return s.toString();
    }

    public int manhattan() {
        int sum = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (tiles[i][j] != 0) sum += Math.abs(i - (tiles[i][j] - 1) / n) + Math.abs(j - (tiles[i][j] - 1) % n);
        return sum;
    }

    public boolean isGoal() { return manhattan() == 0; }

    public boolean equals(Object y) {
        return y instanceof Board && Arrays.deepEquals(tiles, ((Board) y).tiles);
    }

    public int hashCode() { return Arrays.deepHashCode(tiles); }

    public Iterable<Board> neighbors() {
        ArrayList<Board> list = new ArrayList<>();
        int r = 0, c = 0;
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (tiles[i][j] == 0) { r = i; c = j; }
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] d : steps) {
            int i = r + d[0], j = c + d[1];
            if (i < 0 || j < 0 || i >= n || j >= n) continue;
            int[][] copy = new int[n][];
            for (int k = 0; k < n; k++) copy[k] = tiles[k].clone();
            copy[r][c] = copy[i][j];
            copy[i][j] = 0;
            list.add(new Board(copy));
        }
        return list;
    }

    public Board twin() {
        int[][] copy = new int[n][];
        for (int k = 0; k < n; k++) copy[k] = tiles[k].clone();
        int a = copy[0][0] != 0 ? 0 : 1;
        int[] row = copy[a];
        int tmp = row[0]; row[0] = row[1]; row[1] = tmp;
        return new Board(copy);
    }
}
