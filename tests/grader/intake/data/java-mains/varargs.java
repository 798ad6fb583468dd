// expect: Varargs
public class Varargs {
    public static void main(String... args) { System.out.println(args.length); }
}
