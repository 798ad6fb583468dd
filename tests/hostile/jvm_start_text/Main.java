/**
 * Hostile submission: prints the JVM's own start-up failure text and exits 1, so that its
 * failure reads as the grader's ("raise memory_mb": JE) instead of its own.
 * Expected: RTE on every case (the grader starts the JVM itself, without this code, and it starts).
 */
public class Main {
    public static void main(String[] args) {
        System.err.println("Error occurred during initialization of VM");
        System.err.println("Could not reserve enough space for object heap");
        System.exit(1);
    }
}
