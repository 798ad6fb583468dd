import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The student's Board and Solver, reached by reflection, so that a missing or mistyped member costs
 * only the tests that use it (and is named once, by the conformance test), never the whole harness.
 */
final class NpzApiReflect {
    /** A student's exception, unwrapped from reflection. */
    static final class Raised extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final Throwable cause;

        Raised(Throwable cause) {
            super(cause.toString(), null, false, false);
            this.cause = cause;
        }
    }

    final Class<?> board;
    final Class<?> solver;
    final Constructor<?> boardCtor;
    final Constructor<?> solverCtor;
    final Map<String, Method> methods = new HashMap<>();
    final List<String> problems = new ArrayList<>();
    final List<String> extras = new ArrayList<>();

    private static final String[][] BOARD_API = {
        {"dimension", "int"}, {"hamming", "int"}, {"manhattan", "int"}, {"isGoal", "boolean"},
        {"neighbors", "java.lang.Iterable"}, {"twin", "BOARD"}, {"toString", "java.lang.String"},
    };
    private static final String[][] SOLVER_API = {
        {"isSolvable", "boolean"}, {"moves", "int"}, {"solution", "java.lang.Iterable"},
    };

    NpzApiReflect(String boardName, String solverName) {
        this(boardName, solverName, NpzApiReflect.class.getClassLoader());
    }

    NpzApiReflect(String boardName, String solverName, ClassLoader loader) {
        board = load(boardName, "Board", loader);
        solver = solverName == null ? null : load(solverName, "Solver", loader);
        boardCtor = board == null ? null : constructor(board, int[][].class, "Board(int[][] tiles)");
        solverCtor = solver == null || board == null ? null : constructor(solver, board, "Solver(Board initial)");
        if (board != null) {
            for (String[] m : BOARD_API) {
                find(board, m[0], m[1]);
            }
            Method eq = lookup(board, "equals", Object.class);
            if (eq == null || eq.getDeclaringClass() == Object.class) {
                problems.add("Board does not override equals(Object)");
            } else {
                methods.put("equals", eq);
            }
            extras(board, BOARD_API, "equals");
        }
        if (solver != null) {
            for (String[] m : SOLVER_API) {
                find(solver, m[0], m[1]);
            }
            extras(solver, SOLVER_API, null);
        }
    }

    private Class<?> load(String name, String role, ClassLoader loader) {
        if (name == null) {
            problems.add("no " + role + " class found among the compiled classes");
            return null;
        }
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            problems.add("cannot load " + role + " class " + name + ": " + e);
            return null;
        }
    }

    private Constructor<?> constructor(Class<?> cls, Class<?> arg, String wanted) {
        try {
            Constructor<?> c = cls.getConstructor(arg);
            c.setAccessible(true);
            return c;
        } catch (NoSuchMethodException | SecurityException e) {
            List<String> found = new ArrayList<>();
            for (Constructor<?> c : cls.getConstructors()) {
                found.add(signature(c.getParameterTypes(), cls.getSimpleName()));
            }
            problems.add(cls.getSimpleName() + " has no public constructor " + wanted
                    + (found.isEmpty() ? " (it has no public constructor)" : " (found " + String.join(", ", found) + ")"));
            return null;
        }
    }

    private static Method lookup(Class<?> cls, String name, Class<?>... args) {
        try {
            Method m = cls.getMethod(name, args);
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
    }

    private void find(Class<?> cls, String name, String returns) {
        Method m = lookup(cls, name);
        String want = returns.equals("BOARD") ? board.getName() : returns;
        String simple = want.substring(want.lastIndexOf('.') + 1);
        if (m == null || (name.equals("toString") && m.getDeclaringClass() == Object.class)) {
            List<String> near = new ArrayList<>();
            for (Method other : cls.getMethods()) {
                if (other.getName().equalsIgnoreCase(name)) {
                    near.add(other.getReturnType().getSimpleName() + " "
                            + signature(other.getParameterTypes(), other.getName()));
                }
            }
            problems.add(cls.getSimpleName() + " has no public method " + simple + " " + name + "()"
                    + (near.isEmpty() ? "" : " (found " + String.join(", ", near) + ")"));
            return;
        }
        if (!m.getReturnType().getName().equals(want) && !want.equals("java.lang.Iterable")) {
            problems.add(cls.getSimpleName() + "." + name + "() returns " + m.getReturnType().getSimpleName()
                    + ", the sheet says " + simple);
        } else if (want.equals("java.lang.Iterable") && !Iterable.class.isAssignableFrom(m.getReturnType())) {
            problems.add(cls.getSimpleName() + "." + name + "() returns " + m.getReturnType().getSimpleName()
                    + ", the sheet says Iterable<Board>");
        }
        methods.put(name, m);
    }

    private void extras(Class<?> cls, String[][] api, String also) {
        for (Method m : cls.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || m.isSynthetic() || m.isBridge()) {
                continue;
            }
            boolean listed = m.getName().equals(also) || m.getName().equals("main") || m.getName().equals("hashCode");
            for (String[] a : api) {
                listed |= a[0].equals(m.getName());
            }
            if (!listed) {
                extras.add(cls.getSimpleName() + "." + signature(m.getParameterTypes(), m.getName()));
            }
        }
    }

    private static String signature(Class<?>[] args, String name) {
        List<String> names = new ArrayList<>();
        for (Class<?> a : args) {
            names.add(a.getSimpleName());
        }
        return name + "(" + String.join(", ", names) + ")";
    }

    Object makeBoard(int[][] tiles) {
        if (boardCtor == null) {
            throw new NpzApiCore.Fail("cannot build a Board: " + missing("Board(int[][]"));
        }
        return create(boardCtor, (Object) tiles);
    }

    Object makeSolver(Object initial) {
        if (solverCtor == null) {
            throw new NpzApiCore.Fail("cannot build a Solver: " + missing("Solver("));
        }
        return create(solverCtor, initial);
    }

    private static Object create(Constructor<?> c, Object arg) {
        try {
            return c.newInstance(arg);
        } catch (InvocationTargetException e) {
            throw new Raised(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new NpzApiCore.Fail("cannot call " + c + ": " + e);
        }
    }

    Object call(Object target, String name, Object... args) {
        Method m = methods.get(name);
        if (m == null) {
            throw new NpzApiCore.Fail(missing(" " + name + "(") );
        }
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw new Raised(e.getCause());
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new NpzApiCore.Fail("cannot call " + name + "(): " + e);
        }
    }

    private String missing(String part) {
        for (String p : problems) {
            if (p.contains(part.trim()) || p.contains(part)) {
                return p;
            }
        }
        return problems.isEmpty() ? "a member of the sheet's API is missing" : problems.get(0);
    }
}
