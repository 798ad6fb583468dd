// expect: Real
class Fake {
    static String doc = """
        class Inner { public static void main(String[] args) {} }
        """;
}
public class Real {
    public static void main(String[] args) { System.out.println(Fake.doc); }
}
