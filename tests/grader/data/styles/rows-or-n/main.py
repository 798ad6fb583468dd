"""Reads a puzzle from the file named by its last argument, else from standard input, and prints the boards of
a shortest path (breadth-first search: the test sets here are small). With --rows-only it insists the puzzle
has no N line, as a course that hands out rows alone would: the grader's input_format = "rows" must give it that.
"""
import sys
from collections import deque


def read_puzzle(text, rows_only):
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if len(lines[0]) == 1 and len(lines) > 1 and len(lines[1]) > 1:
        if rows_only:
            sys.stderr.write("expected the board's rows only, found an N line first\n")
            sys.exit(3)
        lines = lines[1:]
    n = len(lines)
    return tuple(int(tile) for row in lines for tile in row), n


def shortest_path(start, n):
    goal = tuple(list(range(1, n * n)) + [0])
    previous = {start: None}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        if board == goal:
            path = [board]
            while previous[path[-1]] is not None:
                path.append(previous[path[-1]])
            return path[::-1]
        blank = board.index(0)
        row, col = divmod(blank, n)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < n and 0 <= c < n:
                nxt = list(board)
                nxt[blank], nxt[r * n + c] = nxt[r * n + c], 0
                nxt = tuple(nxt)
                if nxt not in previous:
                    previous[nxt] = board
                    queue.append(nxt)
    return None


def main():
    args = [a for a in sys.argv[1:] if a != "--rows-only"]
    text = open(args[-1]).read() if args else sys.stdin.read()
    board, n = read_puzzle(text, "--rows-only" in sys.argv)
    path = shortest_path(board, n)
    if path is None:
        print("No solution possible")
        return
    print("Minimum number of moves = %d" % (len(path) - 1))
    for each in path:
        print(n)
        for r in range(n):
            print(" ".join(str(t) for t in each[r * n:(r + 1) * n]))
        print("")


if __name__ == "__main__":
    main()
