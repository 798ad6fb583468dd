// expect: First, Second
class First { public static void main(String[] args) { System.out.println(1); } }
class Second { public static void main(String[] args) { System.out.println(2); } }
