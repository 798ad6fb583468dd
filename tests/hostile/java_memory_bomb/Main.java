import java.util.ArrayList;
import java.util.List;

/** Hostile submission: allocates heap until the JVM gives up. */
public class Main {
    public static void main(String[] args) {
        List<long[]> hoard = new ArrayList<>();
        while (true) {
            hoard.add(new long[1 << 20]);
        }
    }
}
