import edu.princeton.cs.algs4.MinPQ;
import java.util.LinkedList;

// Princeton's A* with the twin trick for unsolvable boards. The main method is the
// course skeleton's, left empty: the course's PuzzleChecker is the client.
public class Solver {
    private static class Node implements Comparable<Node> {
        final Board board;
        final int moves;
        final Node prev;
        final int priority;

        Node(Board board, int moves, Node prev) {
            this.board = board;
            this.moves = moves;
            this.prev = prev;
            this.priority = moves + board.manhattan();
        }

        public int compareTo(Node that) { return Integer.compare(priority, that.priority); }
    }

    private Node end;

    public Solver(Board initial) {
        MinPQ<Node> pq = new MinPQ<>();
        MinPQ<Node> twin = new MinPQ<>();
        pq.insert(new Node(initial, 0, null));
        twin.insert(new Node(initial.twin(), 0, null));
        while (true) {
            Node a = pq.delMin();
            if (a.board.isGoal()) { end = a; return; }
            Node b = twin.delMin();
            if (b.board.isGoal()) return;
            expand(pq, a);
            expand(twin, b);
        }
    }

    private static void expand(MinPQ<Node> pq, Node node) {
        for (Board next : node.board.neighbors())
            if (node.prev == null || !next.equals(node.prev.board)) pq.insert(new Node(next, node.moves + 1, node));
    }

    public boolean isSolvable() { return end != null; }

    public int moves() { return end == null ? -1 : end.moves; }

    public Iterable<Board> solution() {
        LinkedList<Board> path = new LinkedList<>();
        for (Node x = end; x != null; x = x.prev) path.addFirst(x.board);
        return path;
    }

    public static void main(String[] args) {
    }
}
