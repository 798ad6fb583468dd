package edu.princeton.cs.algs4;

import java.util.Comparator;
import java.util.PriorityQueue;

/** A stand-in for algs4's MinPQ, enough for the 8-puzzle: insert, delMin, isEmpty. */
public class MinPQ<Key extends Comparable<Key>> {
    private final PriorityQueue<Key> queue = new PriorityQueue<>(Comparator.naturalOrder());

    public void insert(Key key) {
        queue.add(key);
    }

    public Key delMin() {
        return queue.remove();
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }
}
