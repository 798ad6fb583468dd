/** Junk: a Board that keeps nothing and whose every method throws (a trick, if any, is put in its static block). */
public class Board {
    static {
        /*TRICK*/
    }

    public Board(int[][] tiles) { }

    public String toString() { throw new RuntimeException("junk"); }

    public int dimension() { throw new RuntimeException("junk"); }

    public int hamming() { throw new RuntimeException("junk"); }

    public int manhattan() { throw new RuntimeException("junk"); }

    public boolean isGoal() { throw new RuntimeException("junk"); }

    public boolean equals(Object y) { throw new RuntimeException("junk"); }

    public int hashCode() { return 0; }

    public Iterable<Board> neighbors() { throw new RuntimeException("junk"); }

    public Board twin() { throw new RuntimeException("junk"); }
}
