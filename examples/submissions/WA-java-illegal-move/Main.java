import java.io.File;
import java.io.FileNotFoundException;
import java.io.PrintWriter;
import java.util.*;

// A* over strings (Manhattan distance). Bug: the neighbour step +1/-1 does not check the
// row boundary, so the blank "wraps" from the end of one row to the start of the next.
public class Main {
    static int n;

    static List<String> next(String s) {
        List<String> out = new ArrayList<>();
        String[] t = s.split(",");
        int z = Arrays.asList(t).indexOf("0");
        int[] d = {-n, n, -1, 1};
        for (int k : d) {
            int j = z + k;
            if (j < 0 || j >= n * n) continue;
            String[] u = t.clone();
            u[z] = u[j];
            u[j] = "0";
            out.add(String.join(",", u));
        }
        return out;
    }

    static int manhattan(String s) {
        String[] t = s.split(",");
        int h = 0;
        for (int i = 0; i < t.length; i++) {
            int v = Integer.parseInt(t[i]);
            if (v != 0) h += Math.abs(i / n - (v - 1) / n) + Math.abs(i % n - (v - 1) % n);
        }
        return h;
    }

    static boolean solvable(int[] a) {
        int inv = 0, row = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] == 0) { row = i / n; continue; }
            for (int j = i + 1; j < a.length; j++) if (a[j] != 0 && a[j] < a[i]) inv++;
        }
        return n % 2 == 1 ? inv % 2 == 0 : (inv + row) % 2 == 1;
    }

    public static void main(String[] args) throws FileNotFoundException {
        Scanner in = new Scanner(new File("input.txt"));
        n = in.nextInt();
        int[] a = new int[n * n];
        StringBuilder start = new StringBuilder(), goal = new StringBuilder();
        for (int i = 0; i < n * n; i++) {
            a[i] = in.nextInt();
            start.append(i == 0 ? "" : ",").append(a[i]);
            goal.append(i == 0 ? "" : ",").append(i == n * n - 1 ? 0 : i + 1);
        }
        PrintWriter out = new PrintWriter("output.txt");
        if (!solvable(a)) {
            out.println("No solution possible");
            out.close();
            return;
        }
        Map<String, String> from = new HashMap<>();
        Map<String, Integer> cost = new HashMap<>();
        // entries: {f, g, order}, with the board in boards.get(order)
        PriorityQueue<int[]> queue = new PriorityQueue<>((x, y) -> x[0] != y[0] ? x[0] - y[0] : x[2] - y[2]);
        List<String> boards = new ArrayList<>();
        from.put(start.toString(), null);
        cost.put(start.toString(), 0);
        boards.add(start.toString());
        queue.add(new int[] {manhattan(start.toString()), 0, 0});
        while (!queue.isEmpty()) {
            int[] top = queue.poll();
            String s = boards.get(top[2]);
            if (s.equals(goal.toString())) break;
            if (top[1] > cost.get(s)) continue;
            for (String t : next(s)) {
                Integer old = cost.get(t);
                if (old == null || top[1] + 1 < old) {
                    from.put(t, s);
                    cost.put(t, top[1] + 1);
                    boards.add(t);
                    queue.add(new int[] {top[1] + 1 + manhattan(t), top[1] + 1, boards.size() - 1});
                }
            }
        }
        LinkedList<String> path = new LinkedList<>();
        for (String s = goal.toString(); s != null; s = from.get(s)) path.addFirst(s);
        out.println("Minimum number of moves = " + (path.size() - 1));
        for (String s : path) {
            String[] t = s.split(",");
            out.println(n);
            for (int r = 0; r < n; r++) {
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < n; c++) line.append(c == 0 ? "" : " ").append(t[r * n + c]);
                out.println(line);
            }
            out.println();
        }
        out.close();
    }
}
