import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** Test stand-in for the library's In: whitespace-separated tokens of a file. */
public final class In {
    private final String[] tokens;
    private int next;

    public In(String name) {
        try {
            String text = new String(Files.readAllBytes(Paths.get(name)), StandardCharsets.UTF_8).trim();
            tokens = text.isEmpty() ? new String[0] : text.split("\\s+");
        } catch (IOException e) {
            throw new IllegalArgumentException("could not open " + name, e);
        }
    }

    public boolean isEmpty() {
        return next >= tokens.length;
    }

    public int readInt() {
        return Integer.parseInt(tokens[next++]);
    }
}
