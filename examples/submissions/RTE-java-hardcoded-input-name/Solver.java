import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.*;

// Works on the author's machine: it reads "input12.txt", the file they tested with,
// instead of input.txt. On the grader it throws FileNotFoundException at once.
public class Solver {
    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new FileReader("input12.txt"));
        int n = Integer.parseInt(reader.readLine().trim());
        int[] start = new int[n * n];
        for (int r = 0; r < n; r++) {
            String[] parts = reader.readLine().split(" ");
            for (int c = 0; c < n; c++) start[r * n + c] = Integer.parseInt(parts[c]);
        }
        reader.close();
        List<int[]> path = Bfs.search(start, n);
        PrintWriter out = new PrintWriter("output.txt");
        if (path == null) {
            out.println("No solution possible");
        } else {
            out.println("Minimum number of moves = " + (path.size() - 1));
            for (int[] b : path) {
                out.println(n);
                for (int r = 0; r < n; r++) {
                    StringJoiner row = new StringJoiner(" ");
                    for (int c = 0; c < n; c++) row.add(String.valueOf(b[r * n + c]));
                    out.println(row);
                }
                out.println();
            }
        }
        out.close();
    }
}

class Bfs {
    static List<int[]> search(int[] start, int n) {
        int[] goal = new int[n * n];
        for (int i = 0; i < n * n - 1; i++) goal[i] = i + 1;
        Map<String, int[]> parent = new HashMap<>();
        Deque<int[]> queue = new ArrayDeque<>();
        parent.put(Arrays.toString(start), null);
        queue.add(start);
        while (!queue.isEmpty()) {
            int[] b = queue.poll();
            if (Arrays.equals(b, goal)) {
                LinkedList<int[]> path = new LinkedList<>();
                for (int[] x = b; x != null; x = parent.get(Arrays.toString(x))) path.addFirst(x);
                return path;
            }
            int z = 0;
            while (b[z] != 0) z++;
            for (int t : new int[] {z - n, z + n, z % n > 0 ? z - 1 : -1, z % n < n - 1 ? z + 1 : -1}) {
                if (t < 0 || t >= n * n) continue;
                int[] c = b.clone();
                c[z] = c[t];
                c[t] = 0;
                if (!parent.containsKey(Arrays.toString(c))) {
                    parent.put(Arrays.toString(c), b);
                    queue.add(c);
                }
            }
        }
        return null;
    }
}
