"""An AI-course search driver: `python driver.py bfs 1,2,5,3,4,0,6,7,8` writes output.txt with
path_to_goal (the blank's moves), cost_of_path and the search's statistics.

Goal: the blank first (0 1 2 ... N*N-1). Breadth-first search, so every path is the shortest.
"""
import sys
import time
from collections import deque

DIRECTIONS = (("Up", -1, 0), ("Down", 1, 0), ("Left", 0, -1), ("Right", 0, 1))


def parity(tiles, n):
    inversions = 0
    numbers = [t for t in tiles if t]
    for i in range(len(numbers)):
        for j in range(i + 1, len(numbers)):
            if numbers[i] > numbers[j]:
                inversions += 1
    if n % 2:
        return inversions % 2
    return (inversions + tiles.index(0) // n) % 2


def solve(start, n):
    goal = tuple(range(n * n))
    if parity(start, n) != parity(goal, n):
        return None
    parent = {start: None}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        if board == goal:
            break
        blank = board.index(0)
        row, col = divmod(blank, n)
        for name, dr, dc in DIRECTIONS:
            r, c = row + dr, col + dc
            if 0 <= r < n and 0 <= c < n:
                cells = list(board)
                cells[blank], cells[r * n + c] = cells[r * n + c], 0
                child = tuple(cells)
                if child not in parent:
                    parent[child] = (board, name)
                    queue.append(child)
    moves = []
    board = goal
    while parent[board] is not None:
        board, name = parent[board]
        moves.append(name)
    return moves[::-1]


def main():
    method, board = sys.argv[1], sys.argv[2]
    started = time.time()
    tiles = tuple(int(token) for token in board.split(","))
    n = int(round(len(tiles) ** 0.5))
    moves = solve(tiles, n)
    with open("output.txt", "w") as out:
        if moves is None:
            out.write("No solution possible\n")
            return
        out.write("path_to_goal: %s\n" % moves)
        out.write("cost_of_path: %d\n" % len(moves))
        out.write("search_depth: %d\n" % len(moves))
        out.write("running_time: %.8f\n" % (time.time() - started))
        out.write("method: %s\n" % method)


main()
