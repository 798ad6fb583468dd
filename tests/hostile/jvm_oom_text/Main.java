/**
 * Hostile submission: prints the JVM's heap exhaustion, as an uncaught OutOfMemoryError would, and
 * exits 1, holding no more than a JVM that just started, so its failure reads as MLE.
 * Expected: RTE on every case, with the grader's note that it held far less than its limit.
 */
public class Main {
    public static void main(String[] args) {
        System.err.println("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space");
        System.err.println("\tat Main.main(Main.java:9)");
        System.exit(1);
    }
}
