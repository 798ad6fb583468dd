import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java API worker: a thin RPC server in the sandbox, next to the student's classes. It decides nothing.
 *
 * <p>The judge (grader/apitests/judge.py, in the grader's own process, which never loads student code) listens on
 * the Unix socket named in args[0]; the worker connects, reads a hello line (the Board's and Solver's class names,
 * the reference Board's folder in the Solver tests' worker), then answers one JSON request a line, the protocol
 * of harness/python/apiw_worker.py: build a Board from tiles, build a Solver, call a sheet method on a handle,
 * take a measure. Answers are data only (numbers, booleans, strings, null, lists, a reference Board's tiles, or
 * a handle to an object kept here), or the student's exception. Everything it says is evidence the judge
 * checks. A call that outlives its deadline ends the process (status 75); the judge starts another worker.
 * Java 16+ (Unix domain sockets).
 */
public final class NpzApiWorker {
    /** A deep recursion's room; thread stacks count against the run's data limit, so not more. */
    static final long STACK_BYTES = 64L << 20;
    static final int MAX_ITEMS = 100000;
    static final int OVERRAN = 75;
    static final String[] MEMBERS = {"dimension", "hamming", "manhattan", "isGoal", "neighbors", "twin", "toString",
        "equals", "isSolvable", "moves", "solution"};

    private final Map<String, Object> hello;
    private final Map<Long, Object> handles = new HashMap<>();
    private long nextHandle;
    private volatile long deadline;
    /** The student's Board and Solver (application class loader: the agent counts this Board). */
    private NpzApiReflect api;
    /** The reference Board alone, and the student's Solver on it when it works (same loader), or null. */
    private NpzApiReflect refBoards;
    private NpzApiReflect substituted;
    private String refProblem;
    /** The peak-memory sampling rate of each board, set when the reference solve is measured. */
    private final Map<String, Long> sampleEvery = new HashMap<>();

    private NpzApiWorker(Map<String, Object> hello) {
        this.hello = hello;
    }

    public static void main(String[] args) throws Exception {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(args[0]));
        InputStream in = new BufferedInputStream(Channels.newInputStream(channel));
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel));
        @SuppressWarnings("unchecked")
        Map<String, Object> hello = (Map<String, Object>) NpzApiJson.parse(readLine(in));
        // The student's prints go nowhere; the answers go on the socket. stderr stays for a crash's last words.
        System.setOut(new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8.name()));
        System.setIn(new ByteArrayInputStream(new byte[0]));
        NpzApiWorker worker = new NpzApiWorker(hello);
        Thread calls = new Thread(null, () -> worker.serve(in, out), "npz-api-calls", STACK_BYTES);
        calls.setDaemon(true);
        calls.start();
        while (calls.isAlive()) {  // the watchdog: a call past its deadline has already failed its test
            calls.join(50);
            long due = worker.deadline;
            if (due != 0 && System.nanoTime() - due > 0) {
                Runtime.getRuntime().halt(OVERRAN);
            }
        }
        Runtime.getRuntime().halt(0);  // the student's non-daemon threads must not keep the run alive
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                return null;
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    private void serve(InputStream in, OutputStream out) {
        try {
            for (String line = readLine(in); line != null; line = readLine(in)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> req = (Map<String, Object>) NpzApiJson.parse(line);
                Object seconds = req.get("seconds");
                double limit = seconds instanceof Number ? ((Number) seconds).doubleValue() : 10;
                deadline = System.nanoTime() + (long) (limit * 1e9) | 1;
                String reply = answer(req);
                deadline = 0;
                out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            // the judge went away or sent what it never sends: nothing left to answer
        }
    }

    private String answer(Map<String, Object> req) {
        Map<String, Object> reply = new LinkedHashMap<>();
        try {
            reply.put("ok", op(String.valueOf(req.get("op")), req));
        } catch (NpzApiReflect.Raised e) {
            raised(reply, e.cause);
        } catch (Throwable e) {  // the student's error or the worker's: the judge fails the test either way
            raised(reply, e);
        }
        try {
            return NpzApiJson.write(reply);
        } catch (RuntimeException | StackOverflowError e) {
            reply.clear();
            raised(reply, e);
            return NpzApiJson.write(reply);
        }
    }

    private static void raised(Map<String, Object> reply, Throwable e) {
        reply.put("raised", e.getClass().getName());
        reply.put("text", e instanceof StackOverflowError || e instanceof OutOfMemoryError ? e.getClass().getName()
                : NpzApiCore.describe(e));
    }

    private Object op(String op, Map<String, Object> req) throws Exception {
        switch (op) {
            case "find": return find();
            case "new": return create(req);
            case "call": return call(req);
            case "keep": return handle(grid(req.get("value")));
            case "mutate": mutate(decode(req.get("on"))); return null;
            case "substitute": return substitute();
            case "sizes": return sizes(req);
            case "calibrate": return calibrate(req);
            case "peak": return peak(req);
            case "counted": return counted(req);
            case "release": handles.clear(); return null;
            default: throw new NpzApiCore.Fail("the worker has no operation " + op);
        }
    }

    // finding the classes ---------------------------------------------------------------------------------------
    private Map<String, Object> find() {
        api = new NpzApiReflect(text("board"), text("solver"));
        Map<String, Object> names = new LinkedHashMap<>();
        List<Object> missing = new ArrayList<>();
        for (String member : MEMBERS) {
            boolean solverMember = member.equals("isSolvable") || member.equals("moves") || member.equals("solution");
            if ((solverMember ? api.solver : api.board) == null) {
                continue;
            }
            if (api.methods.containsKey(member)) {
                names.put(member, member);
            } else {
                names.put(member, null);
                missing.add(List.of(member, List.of(member)));
            }
        }
        List<Object> conformance = new ArrayList<>(api.problems);
        if (!api.extras.isEmpty()) {
            conformance.add("public methods the sheet does not list: " + String.join(", ", api.extras));
        }
        Map<String, Object> found = new LinkedHashMap<>();
        found.put("board", api.board != null);
        found.put("solver", api.solver != null);
        found.put("modules", new ArrayList<>());
        found.put("problems", new ArrayList<>(api.problems));
        found.put("names", names);
        found.put("missing", missing);
        found.put("conformance", conformance);
        return found;
    }

    private String text(String key) {
        Object value = hello.get(key);
        return value instanceof String ? (String) value : null;
    }

    /** The reference Board alone, loaded (not initialised) without any student class. */
    private NpzApiReflect refBoards() throws java.net.MalformedURLException {
        if (refBoards == null) {
            if (text("refboard") == null || text("board") == null) {
                throw new NpzApiCore.Fail("the reference Board could not be compiled under this submission's Board "
                        + "name");
            }
            refBoards = new NpzApiReflect(text("board"), null, NpzApiSubstitute.loader(text("refboard")));
        }
        return refBoards;
    }

    private String substitute() throws java.net.MalformedURLException {
        if (substituted == null && refProblem == null) {
            if (text("refboard") == null || text("solver") == null) {
                refProblem = "the reference Board could not be compiled under this submission's Board name";
                return refProblem;
            }
            ClassLoader loader = refBoards().board.getClassLoader();
            NpzApiReflect both = new NpzApiReflect(text("board"), text("solver"), loader);
            refProblem = NpzApiSubstitute.check(both);
            substituted = refProblem == null ? both : null;
        }
        return refProblem == null ? "" : refProblem;
    }

    // calls -----------------------------------------------------------------------------------------------------
    private Object create(Map<String, Object> req) {
        List<?> args = (List<?>) req.get("args");
        Object arg = decode(args.isEmpty() ? null : args.get(0));
        if ("board".equals(req.get("cls"))) {
            return handle(api.makeBoard((int[][]) arg));
        }
        boolean reference = substituted != null && (arg == null || substituted.board.isInstance(arg));
        return handle((reference ? substituted : api).makeSolver(arg));
    }

    private Object call(Map<String, Object> req) {
        Object target = decode(req.get("on"));
        List<?> raw = (List<?>) req.get("args");
        Object[] args = new Object[raw.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = decode(raw.get(i));
        }
        return encode(owner(target).call(target, String.valueOf(req.get("member")), args), 0);
    }

    /** The reflection that knows this object's class: the reference one for reference Boards and their Solver. */
    private NpzApiReflect owner(Object target) {
        for (NpzApiReflect r : new NpzApiReflect[] {substituted, refBoards}) {
            if (r != null && target != null && (r.board == target.getClass() || r.solver == target.getClass())) {
                return r;
            }
        }
        return api;
    }

    private boolean isReferenceBoard(Object value) {
        return refBoards != null && value != null && value.getClass() == refBoards.board;
    }

    private Map<String, Object> handle(Object value) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("h", ++nextHandle);
        handles.put(nextHandle, value);
        h.put("type", value == null ? "null" : value.getClass().getSimpleName());
        return h;
    }

    private Object decode(Object value) {
        if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            if (map.get("h") instanceof Long) {
                return handles.get(map.get("h"));
            }
            if (map.get("ref") != null && substituted != null) {
                List<?> tiles = (List<?>) map.get("ref");
                int n = ((Number) map.get("n")).intValue();
                return substituted.makeBoard(NpzApiCore.grid(ints(tiles), n));
            }
            throw new NpzApiCore.Fail("the worker cannot read the argument " + value);
        }
        if (value instanceof List) {
            return grid(value);
        }
        if (value instanceof Long) {
            return ((Long) value).intValue();
        }
        return value;
    }

    private static int[] ints(List<?> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) values.get(i)).intValue();
        }
        return out;
    }

    private static int[][] grid(Object value) {
        List<?> rows = (List<?>) value;
        int[][] g = new int[rows.size()][];
        for (int r = 0; r < g.length; r++) {
            g[r] = ints((List<?>) rows.get(r));
        }
        return g;
    }

    /** A value as data: plain values as themselves, a reference Board as its tiles, a list read out (top level
     * only), anything else kept here as a handle. */
    private Object encode(Object value, int depth) {
        if (value == null || value instanceof Boolean || value instanceof String) {
            return value;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Character) {
            return String.valueOf(value);
        }
        if (value instanceof Float || value instanceof Double) {
            return Map.of("float", String.valueOf(value));
        }
        if (isReferenceBoard(value)) {
            int[] tiles;
            try {
                tiles = (int[]) refBoards.board.getMethod("npzTiles").invoke(value);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the reference Board has no npzTiles() (a grader fault)", e);
            }
            return Map.of("tiles", tiles, "n", (long) Math.round(Math.sqrt(tiles.length)));
        }
        boolean sheetClass = api != null && (value.getClass() == api.board || value.getClass() == api.solver);
        if (depth == 0 && !sheetClass && (value instanceof Iterable || value.getClass().isArray())) {
            List<Object> items = new ArrayList<>();
            if (value instanceof Iterable) {
                for (Object item : (Iterable<?>) value) {
                    items.add(encode(item, 1));
                    if (items.size() > MAX_ITEMS) {
                        break;
                    }
                }
            } else {
                for (int i = 0; i < Math.min(Array.getLength(value), MAX_ITEMS + 1); i++) {
                    items.add(encode(Array.get(value, i), 1));
                }
            }
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("list", items);
            list.put("type", value.getClass().getSimpleName());
            return list;
        }
        return handle(value);
    }

    private static void mutate(Object value) {
        int[][] g = (int[][]) value;
        int n = g.length;
        int x = g[0][0];
        g[0][0] = g[n - 1][n - 1];
        g[n - 1][n - 1] = x;
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            int y = g[0][i];
            g[0][i] = g[0][j];
            g[0][j] = y;
        }
    }

    // measures (untrusted: the judge believes them only for right answers, see docs/api-tests.md) -------------
    private Map<String, Object> sizes(Map<String, Object> req) throws Exception {
        if (!NpzApiAgent.ready()) {
            throw new NpzApiCore.Fail("the memory agent is not loaded (a grader fault)");
        }
        Object target = decode(req.get("on"));
        // A solution's board and its search node: the reference Board's in the Solver tests' worker, the student's
        // own where there is no reference (the judge holds a Board to the sheet's formula, not to this).
        int n = ((Number) req.get("n")).intValue();
        NpzApiReflect boards = text("refboard") != null ? refBoards() : api;
        long reference = NpzApiAgent.deepSize(boards.makeBoard(NpzApiCore.grid(ints((List<?>) req.get("tiles")), n)))
                + 32;
        Map<String, Object> got = new LinkedHashMap<>();
        got.put("student", NpzApiAgent.deepSize(target));
        got.put("reference", reference);
        return got;
    }

    /** The sheet's A* on the reference Board, before any student class is loaded: the judge times it from
     * outside, and keeps its heap peak as the peak-memory test's yardstick. */
    private Object calibrate(Map<String, Object> req) throws Exception {
        NpzApiReflect ref = refBoards();
        int[] tiles = ints((List<?>) req.get("tiles"));
        int n = ((Number) req.get("n")).intValue();
        if (!Boolean.TRUE.equals(req.get("peak"))) {
            return encode(NpzApiPeakMemory.referenceSolve(ref, tiles, n), 1);
        }
        long built = NpzApiSubstitute.counter(ref, "npzInit");
        NpzApiPeakMemory.referenceSolve(ref, tiles, n);
        long every = Math.max(4, (NpzApiSubstitute.counter(ref, "npzInit") - built) / NpzApiPeakMemory.SAMPLES);
        sampleEvery.put(java.util.Arrays.toString(tiles), every);
        long peak = NpzApiPeakMemory.peakOf(NpzApiPeakMemory.referenceHook(ref), every,
                () -> NpzApiPeakMemory.referenceSolve(ref, tiles, n));
        return Map.of("peak", peak);
    }

    private Map<String, Object> peak(Map<String, Object> req) {
        int[] tiles = ints((List<?>) req.get("tiles"));
        int n = ((Number) req.get("n")).intValue();
        boolean reference = Boolean.TRUE.equals(req.get("substitute")) && substituted != null;
        NpzApiReflect solving = reference ? substituted : ownBoardCounted("peak memory");
        long every = sampleEvery.getOrDefault(java.util.Arrays.toString(tiles), 64L);
        Object[] moves = new Object[1];
        long used = NpzApiPeakMemory.peakOf(reference ? NpzApiPeakMemory.referenceHook(substituted)
                : NpzApiPeakMemory.OWN_BOARD, every, () -> {
                    Object solver = solving.makeSolver(solving.makeBoard(NpzApiCore.grid(tiles, n)));
                    moves[0] = solving.call(solver, "moves");
                    return solver;
                });
        Map<String, Object> got = new LinkedHashMap<>();
        got.put("student", used);
        got.put("moves", encode(moves[0], 1));
        return got;
    }

    /** The student's own Board, when the agent instruments it (a Solver that cannot run on the reference one). */
    private NpzApiReflect ownBoardCounted(String what) {
        NpzApiQueueTransformer agent = NpzApiAgent.transformer;
        if (agent == null || !agent.boardInstrumented) {
            throw new NpzApiCore.Fail("the " + what + " need the reference Board substituted, and this Solver does "
                    + "not work with it: " + refProblem + "; nor could the agent count the calls on its own Board ("
                    + (agent == null ? NpzApiAgent.queuesProblem : "the Board class was not instrumented") + ")");
        }
        return api;
    }

    private Map<String, Object> counted(Map<String, Object> req) {
        int[] tiles = ints((List<?>) req.get("tiles"));
        int n = ((Number) req.get("n")).intValue();
        boolean reference = Boolean.TRUE.equals(req.get("substitute")) && substituted != null;
        NpzApiReflect solving = reference ? substituted : ownBoardCounted("operation counts");
        if (!NpzApiAgent.queuesCounted) {
            throw new NpzApiCore.Fail("the agent cannot count priority-queue operations (a grader fault): "
                    + NpzApiAgent.queuesProblem);
        }
        Object board = solving.makeBoard(NpzApiCore.grid(tiles, n));
        if (reference) {
            NpzApiSubstitute.reset(substituted);
        } else {
            npzapi.Boards.reset();
        }
        npzapi.Queues.operations = 0;
        npzapi.Boards.counting = !reference;
        npzapi.Queues.counting = true;
        Object moves;
        try {
            moves = solving.call(solving.makeSolver(board), "moves");
        } finally {
            npzapi.Boards.counting = false;
            npzapi.Queues.counting = false;
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        int[] farA;
        int[] farB;
        if (reference) {
            for (String[] key : new String[][] {{"init", "npzInit"}, {"equals", "npzEquals"},
                {"far_equals", "npzFarEquals"}, {"manhattan", "npzManhattan"}, {"hamming", "npzHamming"},
                {"tostring", "npzToString"}}) {
                counts.put(key[0], NpzApiSubstitute.counter(substituted, key[1]));
            }
            farA = (int[]) NpzApiSubstitute.field(substituted, "npzFarA");
            farB = (int[]) NpzApiSubstitute.field(substituted, "npzFarB");
        } else {
            counts.put("init", npzapi.Boards.init);
            counts.put("equals", npzapi.Boards.equals);
            counts.put("far_equals", npzapi.Boards.farEquals);
            counts.put("manhattan", npzapi.Boards.manhattan);
            counts.put("hamming", npzapi.Boards.hamming);
            counts.put("tostring", npzapi.Boards.toStrings);
            farA = npzapi.Boards.farA;
            farB = npzapi.Boards.farB;
        }
        counts.put("queue", npzapi.Queues.operations);
        Map<String, Object> got = new LinkedHashMap<>();
        got.put("counts", counts);
        got.put("far", farA == null || farB == null ? null
                : List.of(farA, farB, (long) Math.round(Math.sqrt(farA.length))));
        got.put("moves", encode(moves, 1));
        return got;
    }
}
