"""An AI-course 8-puzzle solver with the classic bug: the blank moves on the flat list of tiles, so a
LEFT from the first column wraps to the end of the row above (and RIGHT from the last column to the next row).

Goal: the blank first (0 1 2 ... N*N-1). Breadth-first search, so every path is the shortest.
"""
import sys
from collections import deque



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
        for name, step in (("UP", -n), ("DOWN", n), ("LEFT", -1), ("RIGHT", 1)):
            target = blank + step
            if 0 <= target < n * n:
                cells = list(board)
                cells[blank], cells[target] = cells[target], 0
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
    numbers = [int(token) for token in sys.stdin.read().split()]
    n = numbers[0]
    moves = solve(tuple(numbers[1:1 + n * n]), n)
    if moves is None:
        print("No solution possible")
    else:
        for move in moves:
            print(move)


main()
