import java.util.Iterator;
import java.util.LinkedList;

/** Test stand-in for the library's Queue: a class (not java.util's interface), first in, first out. */
public class Queue<Item> implements Iterable<Item> {
    private final LinkedList<Item> items = new LinkedList<>();

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public int size() {
        return items.size();
    }

    public void enqueue(Item item) {
        items.addLast(item);
    }

    public Item dequeue() {
        return items.removeFirst();
    }

    public Iterator<Item> iterator() {
        return items.iterator();
    }
}
