import java.util.ArrayList;
import java.util.List;

/** The timing tests of the Java API harness: what the student's Solver asks of the reference Board. */
class NpzApiTimingTests extends NpzApiSolverTests {
    static final class Counted {
        final String context;
        final long init;
        final long equals;
        final long far;
        final long manhattan;
        final long hamming;
        final long toString;
        final String example;
        final long queue;

        Counted(String context, long[] calls, String example, long queue) {
            this.context = context;
            init = calls[0];
            equals = calls[1];
            far = calls[2];
            manhattan = calls[3];
            hamming = calls[4];
            toString = calls[5];
            this.example = example;
            this.queue = queue;
        }

        /** The reference Board's counters. */
        static Counted of(String context, NpzApiReflect ref, long queue) {
            String seen;
            try {
                seen = (String) ref.board.getField("npzFarExample").get(null);
            } catch (ReflectiveOperationException e) {
                seen = null;
            }
            long[] calls = {NpzApiSubstitute.counter(ref, "npzInit"), NpzApiSubstitute.counter(ref, "npzEquals"),
                NpzApiSubstitute.counter(ref, "npzFarEquals"), NpzApiSubstitute.counter(ref, "npzManhattan"),
                NpzApiSubstitute.counter(ref, "npzHamming"), NpzApiSubstitute.counter(ref, "npzToString")};
            return new Counted(context, calls, seen, queue);
        }

        /** The student's own Board's calls, as the agent counted them. */
        static Counted ofStudent(String context, long queue) {
            long[] calls = {npzapi.Boards.init, npzapi.Boards.equals, npzapi.Boards.farEquals, npzapi.Boards.manhattan,
                npzapi.Boards.hamming, npzapi.Boards.toStrings};
            return new Counted(context, calls, npzapi.Boards.farExample, queue);
        }
    }

    NpzApiReflect reference;
    /** The reference Board alone, loaded even when the student's Solver cannot run on it (or null). */
    NpzApiReflect referenceBoards;
    String referenceProblem;
    private List<Counted> counted;

    NpzApiTimingTests(NpzApiReflect api, NpzApiSpec spec) {
        super(api, spec);
    }

    /** Substitute the reference Board for the Solver tests when the student's Solver works with it. */
    void substitute() {
        String[] problem = new String[1];
        NpzApiReflect[] boards = new NpzApiReflect[1];
        reference = NpzApiSubstitute.load(spec, problem, boards);
        referenceBoards = boards[0];
        referenceProblem = problem[0];
        if (reference != null) {
            solverApi = reference;
        }
    }

    /** The counts of the timing tests: the Solver on the reference Board, or, when it cannot run on it, on its
     * own Board as the agent counts it. */
    List<Counted> counted() {
        boolean own = reference == null;
        NpzApiQueueTransformer agent = NpzApiAgent.transformer;
        if (own && (agent == null || !agent.boardInstrumented)) {
            throw new NpzApiCore.Fail("the operation counts need the reference Board substituted, and this Solver does"
                    + " not work with it: " + referenceProblem + "; nor could the agent count the calls on its own"
                    + " Board (" + (agent == null ? NpzApiAgent.queuesProblem : "the Board class was not instrumented")
                    + ")");
        }
        if (counted == null) {
            NpzApiReflect solving = own ? api : reference;
            counted = new ArrayList<>();
            for (Case c : cases(true)) {
                if (c.n > 4 || counted.size() >= 8) {
                    continue;
                }
                Object board = solving.makeBoard(NpzApiCore.grid(c.tiles, c.n));
                if (own) {
                    npzapi.Boards.reset();
                } else {
                    NpzApiSubstitute.reset(reference);
                }
                npzapi.Queues.operations = 0;
                npzapi.Boards.counting = own;
                npzapi.Queues.counting = true;
                try {
                    solving.call(solving.makeSolver(board), "moves");
                } finally {
                    npzapi.Boards.counting = false;
                    npzapi.Queues.counting = false;
                }
                long queue = npzapi.Queues.operations;
                counted.add(own ? Counted.ofStudent(c.context, queue) : Counted.of(c.context, reference, queue));
            }
        }
        return counted;
    }

    void unusedMethods() {
        for (Counted c : counted()) {
            if (c.hamming != 0 || c.toString != 0) {
                throw new NpzApiCore.Fail(c.context + ": the solver called hamming() " + c.hamming + " times and toString() "
                        + c.toString + " times; it should call neither");
            }
        }
    }

    void criticalOptimization() {
        for (Counted c : counted()) {
            if (c.far != 0) {
                throw new NpzApiCore.Fail(c.context + ": the solver compared boards with equals() " + c.far + " times where"
                        + " the argument was neither the same board nor a neighbour of a neighbour, e.g. " + c.example
                        + " (the critical optimization compares a neighbour only with the previous search node's board)");
            }
        }
    }

    void counts() {
        for (Counted c : counted()) {
            long[] limit = spec.limits.get(c.context);
            if (limit == null) {
                continue;
            }
            if (!NpzApiAgent.queuesCounted) {
                throw new IllegalStateException("the agent cannot count priority-queue operations (a grader fault): "
                        + NpzApiAgent.queuesProblem);
            }
            if (limit.length >= 4 && c.queue > limit[2]) {
                throw new NpzApiCore.Fail(c.context + ": the solver made " + c.queue + " priority-queue operations"
                        + " (PriorityQueue offer/add and poll/remove, MinPQ insert and delMin); at most " + limit[2]
                        + " allowed (4x the reference A*'s " + limit[3] + ")");
            }
            String[] names = {"Board()", "equals()", "manhattan()"};
            long[] found = {c.init, c.equals, c.manhattan};
            for (int i = 0; i < 3; i++) {
                if (found[i] > limit[0]) {
                    throw new NpzApiCore.Fail(c.context + ": " + names[i] + " was called " + found[i] + " times; at most "
                            + limit[0] + " allowed (4x the reference A*'s " + limit[1] + ")");
                }
            }
        }
    }
}
