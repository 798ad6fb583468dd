// expect: Main
class Helper { void main(String[] args) {} }
public class Main {
    static final public void main(final String[] args) { new Helper(); }
}
