// expect: Generic (empty)
public class Generic {
    public static <T> void main(String[] args) {}
}
