package edu.princeton.cs.algs4;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Test stand-in for the library's MinPQ: a binary heap, by natural order or a comparator. */
public class MinPQ<Key> {
    private final List<Key> heap = new ArrayList<>();
    private final Comparator<Key> order;

    @SuppressWarnings("unchecked")
    public MinPQ() {
        this.order = (a, b) -> ((Comparable<Key>) a).compareTo(b);
    }

    public MinPQ(Comparator<Key> order) {
        this.order = order;
    }

    public boolean isEmpty() {
        return heap.isEmpty();
    }

    public int size() {
        return heap.size();
    }

    public void insert(Key key) {
        heap.add(key);
        for (int i = heap.size() - 1; i > 0 && less(i, (i - 1) / 2); i = (i - 1) / 2)
            swap(i, (i - 1) / 2);
    }

    public Key delMin() {
        Key min = heap.get(0);
        Key last = heap.remove(heap.size() - 1);
        if (!heap.isEmpty()) {
            heap.set(0, last);
            int i = 0;
            while (2 * i + 1 < heap.size()) {
                int child = 2 * i + 1;
                if (child + 1 < heap.size() && less(child + 1, child))
                    child++;
                if (!less(child, i))
                    break;
                swap(i, child);
                i = child;
            }
        }
        return min;
    }

    private boolean less(int i, int j) {
        return order.compare(heap.get(i), heap.get(j)) < 0;
    }

    private void swap(int i, int j) {
        Key kept = heap.get(i);
        heap.set(i, heap.get(j));
        heap.set(j, kept);
    }
}
