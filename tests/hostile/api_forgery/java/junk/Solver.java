/** Junk: a Solver that never searches and whose every method throws. */
public class Solver {
    public Solver(Board initial) { }

    public boolean isSolvable() { throw new RuntimeException("junk"); }

    public int moves() { throw new RuntimeException("junk"); }

    public Iterable<Board> solution() { throw new RuntimeException("junk"); }

    public static void main(String[] args) { }
}
