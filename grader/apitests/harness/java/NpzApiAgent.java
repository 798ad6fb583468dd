import java.lang.instrument.Instrumentation;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;

/** The JVM's own measure of an object graph: a java agent that keeps the Instrumentation it is given. */
public final class NpzApiAgent {
    private static volatile Instrumentation instrumentation;

    private NpzApiAgent() { }

    public static void premain(String args, Instrumentation inst) {
        instrumentation = inst;
        try {
            // The counter on the boot class path, where java.util.PriorityQueue (loaded there) can reach it.
            // Loaded from the harness folder (on the class path) or from the agent jar in it: that folder either way.
            java.io.File here = new java.io.File(NpzApiAgent.class.getProtectionDomain().getCodeSource().getLocation()
                    .toURI());
            if (!here.isDirectory()) {
                here = here.getParentFile();
            }
            inst.appendToBootstrapClassLoaderSearch(new java.util.jar.JarFile(new java.io.File(here, QUEUES_JAR)));
            transformer = new NpzApiQueueTransformer(args == null ? "" : args);
            inst.addTransformer(transformer, true);
            inst.retransformClasses(java.util.PriorityQueue.class);
            queuesCounted = true;
        } catch (Exception | LinkageError e) {
            queuesProblem = e.toString();
        }
    }

    static final String QUEUES_JAR = "npzapi-queues.jar";
    /** Counts the student's own Board's calls when the Solver cannot run on the reference Board (its name is the
     * agent's argument, e.g. puzzle/Board). */
    static volatile NpzApiQueueTransformer transformer;
    static volatile boolean queuesCounted;
    static volatile String queuesProblem = "the agent did not start";

    static boolean ready() {
        return instrumentation != null;
    }

    /** Bytes of every object reachable from root through instance fields, each counted once. */
    static long deepSize(Object root) {
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        ArrayDeque<Object> stack = new ArrayDeque<>();
        stack.push(root);
        long total = 0;
        while (!stack.isEmpty()) {
            Object o = stack.pop();
            if (o == null || seen.containsKey(o) || o instanceof Class) {
                continue;
            }
            seen.put(o, Boolean.TRUE);
            total += instrumentation.getObjectSize(o);
            Class<?> c = o.getClass();
            if (c.isArray()) {
                if (!c.getComponentType().isPrimitive()) {
                    for (int i = 0; i < Array.getLength(o); i++) {
                        Object e = Array.get(o, i);
                        if (e != null) {
                            stack.push(e);
                        }
                    }
                }
                continue;
            }
            for (; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        Object v = f.get(o);
                        if (v != null) {
                            stack.push(v);
                        }
                    } catch (RuntimeException | IllegalAccessException e) {
                        // a JDK class's private field: its size is already counted in its object
                    }
                }
            }
        }
        return total;
    }
}
