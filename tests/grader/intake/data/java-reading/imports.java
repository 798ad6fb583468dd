// imports: java.util.* static:edu.princeton.cs.algs4.StdOut.println static:java.lang.Math.* java.util.Stack edu.princeton.cs.algs4.MinPQ
// package:
// uses: Stack MinPQ
// not-uses: StdOut
// declared: Imports
// errors: no
import java.util.*;
import static edu.princeton.cs.algs4.StdOut.println;
import static java.lang.Math.*;
import java . /* the list's own */ util.Stack;
import edu.princeton.cs.algs4
    .MinPQ;

class Imports {
    Stack<Integer> stack;
    MinPQ<Integer> pq;
    void show() { println(abs(-1)); }
}
