// expect: Quiet (not public)
class Quiet {
    static void main(String[] args) { System.out.println("package-private main"); }
}
