// expect: Point
record Point(int x, int y) {
    public static void main(String[] args) { System.out.println(new Point(1, 2)); }
}
