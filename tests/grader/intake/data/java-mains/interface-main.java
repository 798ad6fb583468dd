// expect: Launcher
interface Launcher {
    static void main(String[] args) { System.out.println("from an interface"); }
}
