// expect: Bom (empty)
public class Bom { public static void main(String[] a) { } }
