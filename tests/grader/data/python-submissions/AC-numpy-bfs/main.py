"""An 8-puzzle solver that uses NumPy for the board (input.txt -> output.txt, the CMPE 160 format), breadth-first.

It also checks that the grader's package environment is read-only: it must not be able to
change the NumPy every other submission imports.
"""
import os
import sys
from collections import deque

import numpy as np


def environment_is_writable():
    target = os.path.join(os.path.dirname(np.__file__), "planted-by-a-submission.txt")
    try:
        with open(target, "w") as handle:
            handle.write("x")
    except OSError:
        return False
    return True


def solvable(board):
    n = board.shape[0]
    flat = [int(t) for t in board.flatten() if t]
    inversions = sum(1 for i in range(len(flat)) for j in range(i + 1, len(flat)) if flat[i] > flat[j])
    if n % 2:
        return inversions % 2 == 0
    blank_row = int(np.argwhere(board == 0)[0][0])
    return (inversions + blank_row) % 2 == 1


def neighbours(state, n):
    blank = state.index(0)
    row, col = divmod(blank, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < n and 0 <= c < n:
            moved = list(state)
            moved[blank], moved[r * n + c] = moved[r * n + c], 0
            yield tuple(moved)


def main():
    if environment_is_writable():
        sys.exit("the package environment is writable")
    numbers = [int(t) for t in open("input.txt").read().split()]
    n = numbers[0]
    start = np.array(numbers[1:1 + n * n]).reshape(n, n)
    out = open("output.txt", "w")
    if not solvable(start):
        out.write("No solution possible\n")
        return
    goal = tuple(list(range(1, n * n)) + [0])
    first = tuple(int(t) for t in start.flatten())
    parent = {first: None}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if state == goal:
            break
        for child in neighbours(state, n):
            if child not in parent:
                parent[child] = state
                queue.append(child)
    path = [goal]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    path.reverse()
    out.write("Minimum number of moves = %d\n" % (len(path) - 1))
    for state in path:
        rows = np.array(state).reshape(n, n)
        out.write("%d\n%s\n\n" % (n, "\n".join(" ".join(str(int(t)) for t in row) for row in rows)))


main()
