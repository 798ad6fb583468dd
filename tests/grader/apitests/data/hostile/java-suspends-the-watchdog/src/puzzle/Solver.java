package puzzle;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.PriorityQueue;

/** A correct A* Solver with the Princeton API (twin in lockstep, the critical optimization, cached priorities). */
public final class Solver {
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

        public int compareTo(Node that) {
            return Integer.compare(priority, that.priority);
        }
    }

    private Node last;

    public Solver(Board initial) {
        if (initial == null) {
            throw new IllegalArgumentException("initial board is null");
        }
        PriorityQueue<Node> main = new PriorityQueue<>();
        PriorityQueue<Node> twin = new PriorityQueue<>();
        main.add(new Node(initial, 0, null));
        twin.add(new Node(initial.twin(), 0, null));
        while (true) {
            Node node = main.poll();
            if (node.board.isGoal()) {
                last = node;
                return;
            }
            expand(node, main);
            Node other = twin.poll();
            if (other.board.isGoal()) {
                return;
            }
            expand(other, twin);
        }
    }

    private static void expand(Node node, PriorityQueue<Node> queue) {
        for (Board next : node.board.neighbors()) {
            if (node.previous == null || !next.equals(node.previous.board)) {
                queue.add(new Node(next, node.moves + 1, node));
            }
        }
    }

    public boolean isSolvable() {
        return last != null;
    }

    public int moves() {
        return last == null ? -1 : last.moves;
    }

    public Iterable<Board> solution() {
        if (last == null) {
            return null;
        }
        Deque<Board> path = new ArrayDeque<>();
        for (Node node = last; node != null; node = node.previous) {
            path.addFirst(node.board);
        }
        return path;
    }

    public static void main(String[] args) {
        Solver solver = new Solver(new Board(new int[][] {{1, 2}, {0, 3}}));
        System.out.println("Minimum number of moves = " + solver.moves());
    }
}
