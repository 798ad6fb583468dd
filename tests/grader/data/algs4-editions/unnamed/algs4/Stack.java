import java.util.Iterator;
import java.util.LinkedList;

/** Test stand-in for the library's Stack: iterates from the top (last pushed first), unlike java.util.Stack. */
public class Stack<Item> implements Iterable<Item> {
    private final LinkedList<Item> items = new LinkedList<>();

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public int size() {
        return items.size();
    }

    public void push(Item item) {
        items.addFirst(item);
    }

    public Item pop() {
        return items.removeFirst();
    }

    public Iterator<Item> iterator() {
        return items.iterator();
    }
}
