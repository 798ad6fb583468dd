// expect: Solver
public class Solver {
    public static void main(String[] args) { System.out.println("hi"); }
}
