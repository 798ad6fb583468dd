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

        Counted(String context, NpzApiReflect ref, long queue) {
            this.queue = queue;
            this.context = context;
            init = NpzApiSubstitute.counter(ref, "npzInit");
            equals = NpzApiSubstitute.counter(ref, "npzEquals");
            far = NpzApiSubstitute.counter(ref, "npzFarEquals");
            manhattan = NpzApiSubstitute.counter(ref, "npzManhattan");
            hamming = NpzApiSubstitute.counter(ref, "npzHamming");
            toString = NpzApiSubstitute.counter(ref, "npzToString");
            String seen;
            try {
                seen = (String) ref.board.getField("npzFarExample").get(null);
            } catch (ReflectiveOperationException e) {
                seen = null;
            }
            example = seen;
        }
    }

    NpzApiReflect reference;
    String referenceProblem;
    private List<Counted> counted;

    NpzApiTimingTests(NpzApiReflect api, NpzApiSpec spec) {
        super(api, spec);
    }

    /** Substitute the reference Board for the Solver tests when the student's Solver works with it. */
    void substitute() {
        String[] problem = new String[1];
        reference = NpzApiSubstitute.load(spec, problem);
        referenceProblem = problem[0];
        if (reference != null) {
            solverApi = reference;
        }
    }

    List<Counted> counted() {
        if (reference == null) {
            throw new NpzApiCore.Fail("the operation counts need the reference Board substituted, and this Solver does"
                    + " not work with it: " + referenceProblem);
        }
        if (counted == null) {
            counted = new ArrayList<>();
            int limit = 8;
            for (Case c : cases(true)) {
                if (c.n > 4 || counted.size() >= limit) {
                    continue;
                }
                Object board = reference.makeBoard(NpzApiCore.grid(c.tiles, c.n));
                NpzApiSubstitute.reset(reference);
                npzapi.Queues.operations = 0;
                npzapi.Queues.counting = true;
                try {
                    reference.call(reference.makeSolver(board), "moves");
                } finally {
                    npzapi.Queues.counting = false;
                }
                counted.add(new Counted(c.context, reference, npzapi.Queues.operations));
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
