package edu.princeton.cs.algs4;

/** Test stand-in for the library's StdOut. */
public final class StdOut {
    private StdOut() {
    }

    public static void println() {
        System.out.println();
    }

    public static void println(Object x) {
        System.out.println(x);
    }

    public static void print(Object x) {
        System.out.print(x);
    }
}
