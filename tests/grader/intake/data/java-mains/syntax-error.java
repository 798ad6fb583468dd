// expect: Broken
public class Broken {
    int x = ;
    public static void main(String[] args) { System.out.println(1) }
}
