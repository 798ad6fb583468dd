package puzzle8;

import edu.princeton.cs.algs4.MinPQ;
import edu.princeton.cs.algs4.Stack;
import java.util.HashSet;
import java.util.Set;

/** A* with the Manhattan priority. */
public final class Solver {
    private final Stack<Board> path;

    private static final class Node implements Comparable<Node> {
        final Board board;
        final int moves;
        final int priority;
        final Node previous;

        Node(Board board, int moves, Node previous) {
            this.board = board;
            this.moves = moves;
            this.priority = moves + board.manhattan();
            this.previous = previous;
        }

        public int compareTo(Node other) {
            return Integer.compare(priority, other.priority);
        }
    }

    public Solver(Board initial) {
        if (initial == null)
            throw new IllegalArgumentException("no board");
        if (!initial.solvable()) {
            path = null;
            return;
        }
        MinPQ<Node> open = new MinPQ<Node>();
        Set<Board> closed = new HashSet<>();
        open.insert(new Node(initial, 0, null));
        Node found;
        while (true) {
            Node node = open.delMin();
            if (node.board.isGoal()) {
                found = node;
                break;
            }
            if (!closed.add(node.board))
                continue;
            for (Board next : node.board.neighbors())
                if (!closed.contains(next))
                    open.insert(new Node(next, node.moves + 1, node));
        }
        path = new Stack<Board>();
        for (Node at = found; at != null; at = at.previous)
            path.push(at.board);
    }

    public boolean isSolvable() {
        return path != null;
    }

    public int moves() {
        return path == null ? -1 : path.size() - 1;
    }

    public Iterable<Board> solution() {
        return path;
    }

    public static void main(String[] args) {
        // the course's test client drives these classes
    }
}
