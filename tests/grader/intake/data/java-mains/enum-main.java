// expect: Mode
enum Mode {
    FAST { void go() {} }, SLOW;
    void go() {}
    public static void main(String[] args) { System.out.println(FAST); }
}
