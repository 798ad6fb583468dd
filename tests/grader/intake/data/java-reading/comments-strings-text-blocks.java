// uses: Board Node
// not-uses: MinPQ StdOut Stack Queue In Bag Date StdIn
// declared: Solver
// errors: no
/** A solver. Uses {@link MinPQ} and {@code Stack<Board>}. */
public class Solver {
    /* Queue<Board> q = new Queue<>(); */
    private final Board start; // In in = new In(args[0]);
    String quoted = "StdOut.println(\" Bag \"); /* Date */";
    char quote = '"';
    char apostrophe = '\'';
    String afterQuote = "// not a comment, and not StdIn either";
    String block = """
        MinPQ<Node> pq = new MinPQ<>();
        \""" still inside: Stack
        """;
    Node next;

    Solver(Board start) {
        this.start = start;
    }
}
