"""An 8-puzzle solver (input.txt -> output.txt, the CMPE 160 format), breadth-first, that only answers
when PyPy runs it: the assignment configures pypy3, and the grader must run it with that."""
import platform
import sys
from collections import deque


def solvable(tiles, n):
    flat = [t for t in tiles if t]
    inversions = sum(1 for i in range(len(flat)) for j in range(i + 1, len(flat)) if flat[i] > flat[j])
    if n % 2:
        return inversions % 2 == 0
    return (inversions + tiles.index(0) // n) % 2 == 1


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
    if platform.python_implementation() != "PyPy":
        sys.exit("run by %s, not by the assignment's PyPy" % platform.python_implementation())
    numbers = [int(t) for t in open("input.txt").read().split()]
    n = numbers[0]
    first = tuple(numbers[1:1 + n * n])
    out = open("output.txt", "w")
    if not solvable(first, n):
        out.write("No solution possible\n")
        return
    goal = tuple(list(range(1, n * n)) + [0])
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
        rows = [state[i * n:(i + 1) * n] for i in range(n)]
        out.write("%d\n%s\n\n" % (n, "\n".join(" ".join(str(t) for t in row) for row in rows)))


main()
