package puzzle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Princeton-style immutable board; toString pads every tile to width 2 like the course's files. */
public final class Board {
    private final int[] tiles;
    private final int n;

    public Board(int[] tiles, int n) {
        this.tiles = tiles.clone();
        this.n = n;
    }

    public int dimension() { return n; }

    public int manhattan() {
        int sum = 0;
        for (int i = 0; i < tiles.length; i++) {
            int t = tiles[i];
            if (t != 0) sum += Math.abs(i / n - (t - 1) / n) + Math.abs(i % n - (t - 1) % n);
        }
        return sum;
    }

    public boolean isGoal() { return manhattan() == 0; }

    /** Inversion parity (odd n), plus the blank's row (even n). */
    public boolean isSolvable() {
        int inversions = 0, blank = 0;
        for (int i = 0; i < tiles.length; i++) {
            if (tiles[i] == 0) { blank = i; continue; }
            for (int j = i + 1; j < tiles.length; j++)
                if (tiles[j] != 0 && tiles[j] < tiles[i]) inversions++;
        }
        if (n % 2 == 1) return inversions % 2 == 0;
        return (inversions + blank / n) % 2 == 1;
    }

    public List<Board> neighbors() {
        List<Board> out = new ArrayList<>();
        int blank = 0;
        while (tiles[blank] != 0) blank++;
        int r = blank / n, c = blank % n;
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] s : steps) {
            int rr = r + s[0], cc = c + s[1];
            if (rr < 0 || rr >= n || cc < 0 || cc >= n) continue;
            int[] copy = tiles.clone();
            copy[blank] = copy[rr * n + cc];
            copy[rr * n + cc] = 0;
            out.add(new Board(copy, n));
        }
        return out;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Board && Arrays.equals(tiles, ((Board) other).tiles);
    }

    @Override
    public int hashCode() { return Arrays.hashCode(tiles); }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        s.append(n).append("\n");
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) s.append(String.format("%2d ", tiles[i * n + j]));
            s.append("\n");
        }
        return s.toString();
    }
}
