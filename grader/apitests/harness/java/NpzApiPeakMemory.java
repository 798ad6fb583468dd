import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.reflect.Field;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Supplier;

/**
 * The Java worker's peak-memory measure: the most heap a solve holds at once (the judge compares it with the
 * sheet's A* on the same boards, measured the same way before any student class was loaded). The reference Board calls a sampler every so many constructions; the sampler runs a full collection
 * (the harness JVM uses the serial collector, which compacts: what is left is exactly what is reachable) and
 * reads what that collection left in each heap pool. Not the heap in use afterwards: any other thread's first
 * allocation after the collection claims a whole allocation buffer (up to megabytes), which would count as held. Both solves are sampled at the same rate, so the comparison is like for like; the rate
 * halves every 32 samples, so a solver that builds far more boards costs more samples, not hours.
 */
final class NpzApiPeakMemory {
    static final int SAMPLES = 16;
    private static final List<MemoryPoolMXBean> HEAP_POOLS = heapPools();

    private NpzApiPeakMemory() { }

    private static final class Node {
        final Object board;
        final int moves;
        final Node previous;
        final int priority;
        final long order;

        Node(Object board, int moves, Node previous, int priority, long order) {
            this.board = board;
            this.moves = moves;
            this.previous = previous;
            this.priority = priority;
            this.order = order;
        }
    }

    /** Where the sampler hangs: the reference Board's static fields, or the agent's count of the student's Board. */
    interface Hook {
        void set(Runnable sampler, long every);
    }

    static Hook referenceHook(NpzApiReflect ref) {
        return (sampler, every) -> {
            set(ref, "npzSampleEvery", every);
            set(ref, "npzSampler", sampler);
        };
    }

    static final Hook OWN_BOARD = (sampler, every) -> {
        npzapi.Boards.sampleEvery = every;
        npzapi.Boards.sampler = sampler;
    };

    /** The most heap (after a full collection) held while {@code action} ran, beyond what was held before. */
    static long peakOf(Hook hook, long every, Supplier<Object> action) {
        hook.set(null, Long.MAX_VALUE); // the hook's first use (reflection) allocates for good: before the base
        long base = liveAfterCollection();
        long[] peak = {0, 0, every};
        Runnable[] sample = new Runnable[1];
        sample[0] = () -> {
            peak[0] = Math.max(peak[0], liveAfterCollection() - base);
            if (++peak[1] % 32 == 0) {
                peak[2] *= 2;
                hook.set(sample[0], peak[2]);
            }
        };
        hook.set(sample[0], every);
        Object kept;
        try {
            kept = action.get();
            sample[0].run(); // with the result still held: what the solve keeps counts too
        } finally {
            hook.set(null, Long.MAX_VALUE);
        }
        java.lang.ref.Reference.reachabilityFence(kept);
        return peak[0];
    }

    /** The bytes reachable now: a full collection, then what it left in the heap's pools. */
    static long liveAfterCollection() {
        System.gc();
        long live = 0;
        for (MemoryPoolMXBean pool : HEAP_POOLS) {
            MemoryUsage left = pool.getCollectionUsage();
            live += left == null ? 0 : left.getUsed();
        }
        return live;
    }

    private static List<MemoryPoolMXBean> heapPools() {
        List<MemoryPoolMXBean> pools = new java.util.ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pools.add(pool);
            }
        }
        return pools;
    }

    private static void set(NpzApiReflect api, String name, Object value) {
        try {
            Field field = api.board.getField(name);
            if (value instanceof Long) {
                field.setLong(null, (Long) value);
            } else {
                field.set(null, value);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the reference Board has no " + name + " (a grader fault)", e);
        }
    }

    /** The sheet's A* through the reference Board: a search node per board, the critical optimization, the twin
     * searched in step; its moves (-1 when the twin is solved first). */
    static Object referenceSolve(NpzApiReflect api, int[] tiles, int n) {
        Object start = api.makeBoard(NpzApiCore.grid(tiles, n));
        long[] order = {0};
        @SuppressWarnings("unchecked")
        PriorityQueue<Node>[] queues = new PriorityQueue[2];
        Object[] roots = {start, api.call(start, "twin")};
        for (int k = 0; k < 2; k++) {
            queues[k] = new PriorityQueue<>((a, b) -> a.priority != b.priority ? Integer.compare(a.priority, b.priority)
                    : Long.compare(a.order, b.order));
            queues[k].add(new Node(roots[k], 0, null, (Integer) api.call(roots[k], "manhattan"), order[0]++));
        }
        while (true) {
            for (int k = 0; k < 2; k++) {
                Node node = queues[k].poll();
                if ((Boolean) api.call(node.board, "isGoal")) {
                    return k == 0 ? node.moves : -1;
                }
                for (Object next : (Iterable<?>) api.call(node.board, "neighbors")) {
                    if (node.previous != null && next.equals(node.previous.board)) {
                        continue;
                    }
                    int priority = node.moves + 1 + (Integer) api.call(next, "manhattan");
                    queues[k].add(new Node(next, node.moves + 1, node, priority, order[0]++));
                }
            }
        }
    }
}
