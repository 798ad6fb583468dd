import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * The student's Solver on the grader's reference Board: a class loader that finds the reference Board (compiled
 * under the student's Board's name) before the student's, and everything else where the student's run finds it.
 * Only the Solver tests' worker has the reference Board's folder (the Board tests' worker has none to borrow).
 */
final class NpzApiSubstitute {
    private NpzApiSubstitute() { }

    /** A loader that finds the reference Board in {@code refBoard} first, then the run's class path. */
    static ClassLoader loader(String refBoard) throws java.net.MalformedURLException {
        List<URL> urls = new ArrayList<>();
        urls.add(new File(refBoard).toURI().toURL());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("_npuzzle_api")) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /** Why the student's Solver cannot run on the reference Board (null when it can): a board 2 moves away. */
    static String check(NpzApiReflect api) {
        if (!api.problems.isEmpty()) {
            return String.join("; ", api.problems);
        }
        try {
            Object solver = api.makeSolver(api.makeBoard(new int[][] {{1, 2, 3}, {4, 5, 6}, {0, 7, 8}}));
            Object moves = api.call(solver, "moves");
            if (!Integer.valueOf(2).equals(moves)) {
                return "with the reference Board, moves() returned " + moves + " for a board 2 moves from the goal";
            }
            return null;
        } catch (NpzApiReflect.Raised e) {
            return "with the reference Board, the Solver threw " + NpzApiCore.describe(e.cause);
        } catch (RuntimeException | LinkageError e) {
            return "with the reference Board: " + e;
        }
    }

    static long counter(NpzApiReflect api, String name) {
        try {
            return api.board.getField(name).getLong(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the reference Board has no counter " + name, e);
        }
    }

    static Object field(NpzApiReflect api, String name) {
        try {
            return api.board.getField(name).get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the reference Board has no field " + name, e);
        }
    }

    static void reset(NpzApiReflect api) {
        try {
            for (String name : new String[] {"npzInit", "npzEquals", "npzFarEquals", "npzManhattan", "npzHamming",
                "npzToString"}) {
                api.board.getField(name).setLong(null, 0L);
            }
            api.board.getField("npzFarA").set(null, null);
            api.board.getField("npzFarB").set(null, null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reset the reference Board's counters", e);
        }
    }
}
