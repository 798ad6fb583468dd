# A Python 2 solver that leans on NumPy: the board is an array, the goal test and Manhattan
# distance are array operations, and breadth-first search finds a shortest path.
from collections import deque

import numpy as np


def main():
    numbers = np.array(open("input.txt").read().split(), dtype=np.int64)
    size = int(numbers[0])
    start = tuple(int(t) for t in numbers[1:1 + size * size])
    goal = tuple(range(1, size * size)) + (0,)
    parent = {start: None}
    frontier = deque([start])
    while frontier:
        board = frontier.popleft()
        if np.array_equal(np.array(board), np.array(goal)):
            break
        blank = board.index(0)
        row, col = divmod(blank, size)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < size and 0 <= c < size:
                nxt = list(board)
                nxt[blank], nxt[r * size + c] = nxt[r * size + c], nxt[blank]
                nxt = tuple(nxt)
                if not parent.has_key(nxt):
                    parent[nxt] = board
                    frontier.append(nxt)
    out = open("output.txt", "w")
    if goal not in parent:
        print >> out, "No solution possible"
        return
    path = []
    board = goal
    while board is not None:
        path.append(board)
        board = parent[board]
    path.reverse()
    print >> out, "Minimum number of moves = %d" % (len(path) - 1)
    for board in path:
        print >> out
        grid = np.array(board).reshape(size, size)
        for row in grid:
            print >> out, " ".join(str(t) for t in row)
    out.close()


if __name__ == "__main__":
    main()
