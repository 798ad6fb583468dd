// expect: none
public class NotMain {
    public void main(String[] args) {}                 // not static
    public static int main(String[] args) { return 0; } // not void
    public static void main(String args) {}            // not an array
    public static void main(String[][] args) {}        // two dimensions
    public static void main(String[] a, int b) {}      // two parameters
    public static void Main(String[] args) {}          // another name
    public static void main(Object[] args) {}          // not String
    Runnable r = new Runnable() { public void run() {} public static void main(String[] a) {} };
}
