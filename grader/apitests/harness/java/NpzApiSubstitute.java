import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * The student's Solver on the grader's reference Board: a class loader that finds the reference Board (compiled
 * under the student's Board's name) before the student's, and everything else where the student's run finds it.
 * When the Solver cannot work with it (it calls a method the sheet does not list, or reads a field), the
 * Solver tests use the student's own Board, and the timing tests say why they cannot count.
 */
final class NpzApiSubstitute {
    private NpzApiSubstitute() { }

    /** The reflection over (reference Board, student's Solver), or null with the reason in problem[0]. */
    static NpzApiReflect load(NpzApiSpec spec, String[] problem) {
        return load(spec, problem, new NpzApiReflect[1]);
    }

    /** As above; boards[0] receives the reflection over the reference Board whenever it loaded, even when the
     * student's Solver cannot run on it (the peak-memory test still solves with the sheet's A* on it). */
    static NpzApiReflect load(NpzApiSpec spec, String[] problem, NpzApiReflect[] boards) {
        if (spec.refBoard == null || spec.board == null || spec.solver == null) {
            problem[0] = "the reference Board could not be compiled under this submission's Board name";
            return null;
        }
        try {
            List<URL> urls = new ArrayList<>();
            urls.add(new File(spec.refBoard).toURI().toURL());
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (!entry.contains("_npuzzle_api")) {
                    urls.add(new File(entry).toURI().toURL());
                }
            }
            ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            NpzApiReflect api = new NpzApiReflect(spec.board, spec.solver, loader);
            boards[0] = api;
            if (!api.problems.isEmpty()) {
                problem[0] = String.join("; ", api.problems);
                return null;
            }
            Object solver = api.makeSolver(api.makeBoard(new int[][] {{1, 2, 3}, {4, 5, 6}, {0, 7, 8}}));
            Object moves = api.call(solver, "moves");
            if (!Integer.valueOf(2).equals(moves)) {
                problem[0] = "with the reference Board, moves() returned " + moves + " for a board 2 moves from the goal";
                return null;
            }
            return api;
        } catch (NpzApiReflect.Raised e) {
            problem[0] = "with the reference Board, the Solver threw " + NpzApiCore.describe(e.cause);
        } catch (RuntimeException | LinkageError | java.net.MalformedURLException e) {
            problem[0] = "with the reference Board: " + e;
        }
        return null;
    }

    static long counter(NpzApiReflect api, String name) {
        try {
            return api.board.getField(name).getLong(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the reference Board has no counter " + name, e);
        }
    }

    static void reset(NpzApiReflect api) {
        try {
            for (String name : new String[] {"npzInit", "npzEquals", "npzFarEquals", "npzManhattan", "npzHamming",
                "npzToString"}) {
                api.board.getField(name).setLong(null, 0L);
            }
            api.board.getField("npzFarExample").set(null, null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reset the reference Board's counters", e);
        }
    }
}
