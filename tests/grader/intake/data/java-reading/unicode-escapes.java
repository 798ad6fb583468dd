// uses: MinPQ StdIn Stack Board
// not-uses: Queue Bag
// declared: Solver Board
// errors: no
public class Solver {
    // javac turns each Unicode escape into its character before it reads any token (JLS 3.3)
    M\u0069nPQ<Integer> pq;
    String s = "\u0022 + StdIn.readInt() + \u0022";
    // a line break written as an escape ends this comment: \u000a Stack<Integer> stack;
    String notAnEscape = "\\u0051ueue";
    String alsoText = "B\u0061g";
    \uuu0042oard b;
}
class \u0042oard { }
