// expect: Puzzle
public class Puzzle {
    public static synchronized void main(String[] args) throws Exception { run(); }
    static void run() {}
}
