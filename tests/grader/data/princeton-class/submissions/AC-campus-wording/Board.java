import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An n-by-n slider puzzle board (0 is the blank). */
public final class Board {
    private final int n;
    private final int[] cells;
    private final int blank;

    public Board(int[][] tiles) {
        n = tiles.length;
        cells = new int[n * n];
        int at = 0;
        for (int row = 0; row < n; row++)
            for (int col = 0; col < n; col++) {
                cells[row * n + col] = tiles[row][col];
                if (tiles[row][col] == 0)
                    at = row * n + col;
            }
        blank = at;
    }

    private Board(int n, int[] cells, int blank) {
        this.n = n;
        this.cells = cells;
        this.blank = blank;
    }

    public int dimension() {
        return n;
    }

    public int manhattan() {
        int sum = 0;
        for (int i = 0; i < cells.length; i++)
            if (cells[i] != 0)
                sum += Math.abs(i / n - (cells[i] - 1) / n) + Math.abs(i % n - (cells[i] - 1) % n);
        return sum;
    }

    public boolean isGoal() {
        return manhattan() == 0;
    }

    public Iterable<Board> neighbors() {
        List<Board> out = new ArrayList<>();
        int row = blank / n, col = blank % n;
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] step : steps) {
            int r = row + step[0], c = col + step[1];
            if (r < 0 || r >= n || c < 0 || c >= n)
                continue;
            int[] next = cells.clone();
            next[blank] = next[r * n + c];
            next[r * n + c] = 0;
            out.add(new Board(n, next, r * n + c));
        }
        return out;
    }

    /** Inversion parity; on even boards plus the blank's row counted from the bottom. */
    public boolean isSolvable() {
        int inversions = 0;
        for (int i = 0; i < cells.length; i++)
            for (int j = i + 1; j < cells.length; j++)
                if (cells[i] != 0 && cells[j] != 0 && cells[i] > cells[j])
                    inversions++;
        if (n % 2 == 1)
            return inversions % 2 == 0;
        return (inversions + n - blank / n) % 2 == 1;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Board && Arrays.equals(cells, ((Board) other).cells);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(cells);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder().append(n).append('\n');
        for (int row = 0; row < n; row++) {
            for (int col = 0; col < n; col++)
                text.append(String.format("%2d ", cells[row * n + col]));
            text.append('\n');
        }
        return text.toString();
    }
}
