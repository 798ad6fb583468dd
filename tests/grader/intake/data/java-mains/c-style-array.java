// expect: CStyle
public class CStyle {
    public static void main(String args[]) { System.out.println(args.length); }
}
