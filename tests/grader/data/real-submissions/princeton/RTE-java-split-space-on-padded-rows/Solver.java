import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;

public class Solver {
    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new FileReader(args[0]));
        int n = Integer.parseInt(reader.readLine().trim());
        int[] tiles = new int[n * n];
        for (int r = 0; r < n; r++) {
            String[] parts = reader.readLine().split(" ");   // " 1  4  2 " has empty fields
            for (int c = 0; c < n; c++) tiles[r * n + c] = Integer.parseInt(parts[c]);
        }
        System.out.println("read " + tiles.length + " tiles");
    }
}
