// expect: app.Outer$Inner
package app;
public class Outer {
    void helper() {}
    public static class Inner {
        public static void main(String[] args) { System.out.println("inner"); }
    }
}
