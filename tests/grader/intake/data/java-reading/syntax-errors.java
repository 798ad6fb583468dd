// declared: Broken Later
// uses: Stack MinPQ Board
// not-uses: Queue
// errors: yes
public class Broken {
    int x = ;
    Stack<Integer> before;
    void f() { System.out.println(1) }
    /* Queue */
    MinPQ<Board> after = new MinPQ<>(;
}

class Later { }
