# BFS with a distance table indexed by the board read as a base-N*N number: fine for
# 2x2 (4**4 entries), but a 3x3 board needs 9**9 entries and runs out of memory.
from collections import deque

tokens = open("input.txt").read().split()
n = int(tokens[0])
start = tuple(int(t) for t in tokens[1:])
size = n * n


def index(board):
    value = 0
    for tile in board:
        value = value * size + tile
    return value


dist = [-1] * (size ** size)
parent = {}
goal = tuple(range(1, size)) + (0,)
dist[index(start)] = 0
queue = deque([start])
while queue:
    board = queue.popleft()
    if board == goal:
        break
    z = board.index(0)
    for t in (z - n, z + n, z - 1 if z % n else -1, z + 1 if z % n < n - 1 else -1):
        if 0 <= t < size:
            nxt = list(board)
            nxt[z], nxt[t] = nxt[t], 0
            nxt = tuple(nxt)
            if dist[index(nxt)] < 0:
                dist[index(nxt)] = dist[index(board)] + 1
                parent[nxt] = board
                queue.append(nxt)
with open("output.txt", "w") as out:
    if dist[index(goal)] < 0:
        out.write("No solution possible\n")
    else:
        path = [goal]
        while path[-1] != start:
            path.append(parent[path[-1]])
        out.write("Minimum number of moves = %d\n" % (len(path) - 1))
        for board in reversed(path):
            out.write("%d\n" % n)
            for r in range(n):
                out.write(" ".join(map(str, board[r * n:r * n + n])) + "\n")
            out.write("\n")
