import java.io.File;
import java.util.Scanner;

public class Solver {
    public static void main(String[] args) throws Exception {
        Scanner in = new Scanner(new File("input.txt"));
        int n = in.nextInt();
        int[] tiles = new int[n * n];
        for (int i = 0; i < n * n; i++) tiles[i] = in.nextInt();
        String moves = countMoves(tiles, n);   // int returned into a String: does not compile
        System.out.println(moves)
    }

    static int countMoves(int[] tiles, int n) {
        return 0;
    }
}
