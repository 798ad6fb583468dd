/**
 * What the Java API worker's classes share: a problem of the worker's own (not the student's), a board's tiles as
 * the int[][] the sheet's constructor takes, and a student's exception described in one line.
 */
final class NpzApiCore {
    private NpzApiCore() { }

    /** The worker cannot do what it was asked (a member is missing, the reference Board is absent). */
    static final class Fail extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fail(String message) {
            super(message, null, false, false);
        }
    }

    static int[][] grid(int[] t, int n) {
        int[][] g = new int[n][n];
        for (int i = 0; i < t.length; i++) {
            g[i / n][i % n] = t[i];
        }
        return g;
    }

    /** The exception's class and message, and the first frame in the student's code. */
    static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(e.getClass().getName());
        String message;
        try {
            message = e.getMessage();
        } catch (RuntimeException | StackOverflowError inner) {  // a student's getMessage() may throw
            message = "(its getMessage() threw " + inner.getClass().getName() + ")";
        }
        if (message != null) {
            b.append(": ").append(message.length() > 400 ? message.substring(0, 400) : message);
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
