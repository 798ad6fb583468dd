public class Solver {
    public Solver(int[] tiles) {
    }

    public int moves() {
        return -1;
    }

    // Princeton's skeleton: the course's own test client is meant to drive this class.
    public static void main(String[] args) {
    }
}
