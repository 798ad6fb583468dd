/** A stand-in for the old default-package algs4 StdOut. */
public final class StdOut {
    private StdOut() {
    }

    public static void println(Object x) {
        System.out.println(x);
    }
}
