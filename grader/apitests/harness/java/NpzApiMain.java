import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The Java API harness: run inside the sandbox with the student's compiled classes on the classpath.
 *
 * <p>The battery comes on stdin (read before any student code runs); results go to the real stdout, one
 * line per test ({@code @@api <nonce> {json}}), while System.out is silenced. The
 * student's classes are reached by reflection (NpzApiReflect), so a missing member fails the tests that
 * need it and is named by the conformance test. Each test runs on its own thread under a time limit; a
 * test that overruns is reported and the run exits with status 75, and the grader starts a new run for
 * the tests after it.
 */
public final class NpzApiMain {
    static final int RESTART = 75;
    /** A deep recursion's room; thread stacks count against the run's data limit, so not more. */
    static final long STACK_BYTES = 64L << 20;

    private NpzApiMain() { }

    public static void main(String[] args) throws Exception {
        NpzApiSpec spec = NpzApiSpec.read();
        NpzApiCore.nonce = spec.nonce;
        NpzApiCore.out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8.name());
        System.setOut(silent);  // stderr stays: the JVM's own last words end up in a crashed test's message
        NpzApiReflect api = new NpzApiReflect(spec.board, spec.solver);
        NpzApiTimingTests tests = new NpzApiTimingTests(api, spec);
        if (spec.tests.stream().anyMatch(t -> t.startsWith("solver.") || t.startsWith("timing."))) {
            tests.substitute();
        }
        for (String name : spec.tests) {
            run(tests, name, spec.slow.getOrDefault(name, spec.seconds));
        }
        NpzApiCore.out.flush();
        Runtime.getRuntime().halt(0);  // the student's non-daemon threads must not keep the run alive
    }

    private static void run(NpzApiTimingTests tests, String name, double seconds) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        boolean[] done = new boolean[1];
        Thread thread = new Thread(null, () -> {
            try {
                dispatch(tests, name);
            } catch (Throwable e) {
                failure[0] = e;
            }
            done[0] = true;
        }, "npz-api-" + name, STACK_BYTES);
        thread.setDaemon(true);
        long started = System.nanoTime();
        thread.start();
        thread.join((long) (seconds * 1000));
        if (thread.isAlive()) {
            NpzApiCore.emit(name, false, "did not finish in " + seconds + " s");
            Runtime.getRuntime().halt(RESTART);
        }
        Throwable e = failure[0];
        if (e == null && done[0]) {
            NpzApiCore.emit(name, true, String.format("passed in %.2f s", (System.nanoTime() - started) / 1e9));
        } else if (e instanceof NpzApiCore.Fail) {
            NpzApiCore.emit(name, false, e.getMessage());
        } else if (e instanceof NpzApiReflect.Raised) {
            NpzApiCore.emit(name, false, "threw " + NpzApiCore.describe(((NpzApiReflect.Raised) e).cause));
        } else if (e instanceof StackOverflowError || e instanceof OutOfMemoryError) {
            NpzApiCore.emit(name, false, "threw " + e.getClass().getName());
        } else if (e != null) {
            NpzApiCore.emit(name, false, "threw " + NpzApiCore.describe(e));
        }
    }

    private static void dispatch(NpzApiTimingTests t, String name) {
        switch (name) {
            case "api.conformance": t.conformance(); break;
            case "board.hamming.files": t.hammingFiles(); break;
            case "board.hamming.random": t.hammingRandom(); break;
            case "board.manhattan.files": t.manhattanFiles(); break;
            case "board.manhattan.random": t.manhattanRandom(); break;
            case "board.dimension": t.dimension(); break;
            case "board.tostring.files": t.tostringFiles(); break;
            case "board.tostring.random": t.tostringRandom(); break;
            case "board.neighbors.files": t.neighborsFiles(); break;
            case "board.neighbors.random": t.neighborsRandom(); break;
            case "board.neighbors-of-neighbors": t.neighborsOfNeighbors(); break;
            case "board.twin.files": t.twinFiles(); break;
            case "board.twin.random": t.twinRandom(); break;
            case "board.isgoal.files": t.isgoalFiles(); break;
            case "board.isgoal.boards": t.isgoalBoards(); break;
            case "board.two-at-once": t.twoAtOnce(); break;
            case "board.equals.properties": t.equalsProperties(); break;
            case "board.equals.random": t.equalsRandom(); break;
            case "board.equals.sizes": t.equalsSizes(); break;
            case "board.immutable.array": t.immutableArray(); break;
            case "board.call-order": t.callOrder(); break;
            case "board.derived": t.derived(); break;
            case "board.memory": t.memory(); break;
            case "solver.memory": t.solverMemory(); break;
            case "solver.peak-memory": NpzApiPeakMemory.run(t); break;
            case "solver.moves.files": t.movesFiles(); break;
            case "solver.solution.files": t.solutionFiles(); break;
            case "solver.moves.random": t.movesRandom(); break;
            case "solver.solution.random": t.solutionRandom(); break;
            case "solver.issolvable": t.issolvable(); break;
            case "solver.unsolvable": t.unsolvableBoards(); break;
            case "solver.null": t.nullBoard(); break;
            case "solver.two-at-once": t.twoAtOnceSolvers(); break;
            case "solver.call-order": t.callOrderSolver(); break;
            case "timing.unused-methods": t.unusedMethods(); break;
            case "timing.critical-optimization": t.criticalOptimization(); break;
            case "timing.counts": t.counts(); break;
            default: throw new NpzApiCore.Fail("this harness has no test " + name + " (grader and harness disagree)");
        }
    }
}
