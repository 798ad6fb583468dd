package puzzle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/** A* with Manhattan priority, the Princeton way, reading input.txt and writing output.txt. */
public class Solver {
    private static final class Node implements Comparable<Node> {
        final Board board;
        final int moves;
        final Node previous;
        final int priority;

        Node(Board board, int moves, Node previous) {
            this.board = board;
            this.moves = moves;
            this.previous = previous;
            this.priority = moves + board.manhattan();
        }

        public int compareTo(Node that) { return Integer.compare(priority, that.priority); }
    }

    private Node last;

    public Solver(Board initial) {
        if (!initial.isSolvable()) return;
        PriorityQueue<Node> pq = new PriorityQueue<>();
        Map<Board, Integer> best = new HashMap<>();
        pq.add(new Node(initial, 0, null));
        best.put(initial, 0);
        while (!pq.isEmpty()) {
            Node node = pq.poll();
            if (node.board.isGoal()) { last = node; return; }
            if (node.moves > best.get(node.board)) continue;
            for (Board next : node.board.neighbors()) {
                Integer known = best.get(next);
                if (known == null || node.moves + 1 < known) {
                    best.put(next, node.moves + 1);
                    pq.add(new Node(next, node.moves + 1, node));
                }
            }
        }
    }

    public boolean isSolvable() { return last != null; }

    public int moves() { return last == null ? -1 : last.moves; }

    public Iterable<Board> solution() {
        Deque<Board> path = new ArrayDeque<>();
        for (Node x = last; x != null; x = x.previous) path.addFirst(x.board);
        return path;
    }

    public static void main(String[] args) throws IOException {
        Path input = Paths.get(args.length > 0 ? args[0] : "input.txt");
        String[] words = new String(Files.readAllBytes(input), StandardCharsets.UTF_8).trim().split("\\s+");
        int n = Integer.parseInt(words[0]);
        int[] tiles = new int[n * n];
        for (int i = 0; i < n * n; i++) tiles[i] = Integer.parseInt(words[i + 1]);
        Solver solver = new Solver(new Board(tiles, n));
        StringBuilder out = new StringBuilder();
        if (!solver.isSolvable()) {
            out.append("No solution possible\n");
        } else {
            out.append("Minimum number of moves = ").append(solver.moves()).append("\n");
            for (Board board : solver.solution()) out.append(board).append("\n");
        }
        Files.write(Paths.get("output.txt"), out.toString().getBytes(StandardCharsets.UTF_8));
        System.out.println("done: " + solver.moves() + " moves");
    }
}
