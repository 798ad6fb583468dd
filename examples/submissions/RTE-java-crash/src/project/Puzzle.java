package project;

import java.util.ArrayList;

public class Puzzle {
    int size;
    int[][] grid;
    int g;
    Puzzle parent;
    final int f;
    final String key;

    Puzzle(int[][] grid, int g, Puzzle parent) {
        this.size = grid.length;
        this.grid = grid;
        this.g = g;
        this.parent = parent;
        this.f = g + h();
        this.key = key();
    }

    int h() {
        int total = 0;
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int v = grid[r][c];
                if (v != 0) total += Math.abs(r - (v - 1) / size) + Math.abs(c - (v - 1) % size);
            }
        return total;
    }

    String key() {
        StringBuilder sb = new StringBuilder();
        for (int[] row : grid) for (int v : row) sb.append(v).append(' ');
        return sb.toString();
    }

    ArrayList<Puzzle> getAdjacents() {
        ArrayList<Puzzle> list = new ArrayList<>();
        int br = 0, bc = 0;
        for (int r = 0; r < size; r++) for (int c = 0; c < size; c++) if (grid[r][c] == 0) { br = r; bc = c; }
        int[][] d = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] m : d) {
            int r = br + m[0], c = bc + m[1];
            if (r < 0 || c < 0 || r >= size || c >= size) continue;
            int[][] copy = new int[size][];
            for (int i = 0; i < size; i++) copy[i] = grid[i].clone();
            copy[br][bc] = copy[r][c];
            copy[r][c] = 0;
            list.add(new Puzzle(copy, g + 1, this));
        }
        return list;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(size).append('\n');
        for (int[] row : grid) {
            for (int v : row) sb.append(' ').append(v);
            sb.append('\n');
        }
        return sb.toString();
    }
}
