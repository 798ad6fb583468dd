// expect: Board (empty)
public class Board {
    public static void main(String[] args) {
        // unit tests (not graded)
    }
}
