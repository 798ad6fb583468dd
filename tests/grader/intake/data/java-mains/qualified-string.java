// expect: Runner (empty)
public class Runner {
    public static void main(java.lang.String[] args) { }
    // a comment so the body above counts as empty, and this one mentions main(String[] a)
}
