// uses: Map List Board Node Comparable Comparator Collections Outer Iterable Integer edu java
// not-uses: Entry Inner MinPQ ArrayList StdOut
// declared: Solver Node Direction Step Local Outer Inner
// qualified: Map.Entry Outer.Inner edu.princeton.cs.algs4.MinPQ java.util.ArrayList
// errors: no
import java.util.*;

public class Solver<T extends Comparable<? super T>> implements Iterable<Board> {
    private Map.Entry<String, List<Board>> entry;
    private Outer.Inner<Node[]> inner;
    private edu.princeton.cs.algs4.MinPQ<Node> pq = new edu.princeton.cs.algs4.MinPQ<>(Comparator.comparingInt(Node::priority));
    private final java.util.ArrayList<Integer> moves = new java.util.ArrayList<>();

    private static final class Node implements Comparable<Node> {
        int priority() { return 0; }
        public int compareTo(Node other) { return 0; }
    }

    enum Direction { UP, DOWN { @Override public String toString() { return "d"; } } }

    record Step(Board board, int moves) { }

    public Iterator<Board> iterator() {
        class Local { }
        List<Board> none = Collections.<Board>emptyList();
        Object o = none;
        if (o instanceof Board b) { return null; }
        return ((List<Board>) o).iterator();
    }
}

class Outer { static class Inner<X> { } }
