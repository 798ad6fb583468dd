import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Java API harness's core: the reference model of a board, the output protocol and messages.
 * Part of the harness the grader compiles and runs beside a student's classes (see NpzApiMain).
 */
final class NpzApiCore {
    static PrintStream out;
    static String nonce = "";
    static final int MAX_MESSAGE = 1500;

    private NpzApiCore() { }

    /** A failed check; the message is what the student reads. */
    static final class Fail extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fail(String message) {
            super(message, null, false, false);
        }
    }

    static synchronized void emit(String name, boolean passed, String message) {
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE);
        }
        out.println("@@api " + nonce + " {\"name\": " + quote(name) + ", \"passed\": " + passed
                + ", \"message\": " + quote(message) + "}");
        out.flush();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static int[] goal(int n) {
        int[] t = new int[n * n];
        for (int i = 0; i < n * n - 1; i++) {
            t[i] = i + 1;
        }
        return t;
    }

    static int hamming(int[] t, int n) {
        int h = 0;
        for (int i = 0; i < t.length; i++) {
            if (t[i] != 0 && t[i] != i + 1) {
                h++;
            }
        }
        return h;
    }

    static int manhattan(int[] t, int n) {
        int m = 0;
        for (int i = 0; i < t.length; i++) {
            if (t[i] != 0) {
                m += Math.abs(i / n - (t[i] - 1) / n) + Math.abs(i % n - (t[i] - 1) % n);
            }
        }
        return m;
    }

    static List<int[]> neighbors(int[] t, int n) {
        int blank = 0;
        while (t[blank] != 0) {
            blank++;
        }
        int r = blank / n;
        int c = blank % n;
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        List<int[]> out = new ArrayList<>();
        for (int[] s : steps) {
            int rr = r + s[0];
            int cc = c + s[1];
            if (rr >= 0 && rr < n && cc >= 0 && cc < n) {
                int[] u = t.clone();
                u[blank] = u[rr * n + cc];
                u[rr * n + cc] = 0;
                out.add(u);
            }
        }
        return out;
    }

    static boolean contains(List<int[]> boards, int[] t) {
        for (int[] b : boards) {
            if (Arrays.equals(b, t)) {
                return true;
            }
        }
        return false;
    }

    static boolean solvable(int[] t, int n) {
        int inv = 0;
        int blank = 0;
        for (int i = 0; i < t.length; i++) {
            if (t[i] == 0) {
                blank = i;
                continue;
            }
            for (int j = i + 1; j < t.length; j++) {
                if (t[j] != 0 && t[i] > t[j]) {
                    inv++;
                }
            }
        }
        return n % 2 == 1 ? inv % 2 == 0 : (inv + blank / n) % 2 == 1;
    }

    static int[][] grid(int[] t, int n) {
        int[][] g = new int[n][n];
        for (int i = 0; i < t.length; i++) {
            g[i / n][i % n] = t[i];
        }
        return g;
    }

    static String show(int[] t, int n) {
        if (n > 5) {
            return "a " + n + "x" + n + " board";
        }
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                b.append(String.format("%2d", t[r * n + c])).append(c < n - 1 ? " " : "");
            }
            if (r < n - 1) {
                b.append('\n');
            }
        }
        return b.toString();
    }

    static String oneLine(int[] t, int n) {
        return show(t, n).replace("\n", " /");
    }

    /** The tiles a toString() shows: a line with n, then n rows of n numbers. */
    static int[] parse(Object shown, int n, String context) {
        if (!(shown instanceof String)) {
            throw new Fail(context + ": toString() returned null");
        }
        List<String> lines = new ArrayList<>();
        for (String line : ((String) shown).split("\n")) {
            if (!line.trim().isEmpty()) {
                lines.add(line.trim());
            }
        }
        if (lines.isEmpty() || !lines.get(0).equals(Integer.toString(n))) {
            String first = lines.isEmpty() ? "nothing" : lines.get(0);
            throw new Fail(context + ": toString() must start with a line holding the size " + n + ", found \""
                    + first.substring(0, Math.min(40, first.length())) + "\"");
        }
        if (lines.size() != n + 1) {
            throw new Fail(context + ": toString() must show " + n + " rows after the size line, found "
                    + (lines.size() - 1));
        }
        int[] t = new int[n * n];
        for (int r = 0; r < n; r++) {
            String[] parts = lines.get(r + 1).split("\\s+");
            if (parts.length != n) {
                throw new Fail(context + ": toString() row " + (r + 1) + " should hold " + n + " numbers, found \""
                        + lines.get(r + 1) + "\"");
            }
            for (int c = 0; c < n; c++) {
                try {
                    t[r * n + c] = Integer.parseInt(parts[c]);
                } catch (NumberFormatException e) {
                    throw new Fail(context + ": toString() row " + (r + 1) + " holds \"" + parts[c]
                            + "\", not a number");
                }
            }
        }
        return t;
    }

    static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(e.getClass().getName());
        if (e.getMessage() != null) {
            b.append(": ").append(e.getMessage());
        }
        for (StackTraceElement frame : e.getStackTrace()) {
            String cls = frame.getClassName();
            if (!cls.startsWith("NpzApi") && !cls.startsWith("java.") && !cls.startsWith("jdk.")
                    && !cls.startsWith("sun.")) {
                b.append(" (at ").append(frame.getFileName()).append(':').append(frame.getLineNumber()).append(')');
                break;
            }
        }
        return b.length() > 600 ? b.substring(0, 600) : b.toString();
    }
}
