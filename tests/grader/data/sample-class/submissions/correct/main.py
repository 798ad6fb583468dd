"""A correct submission: breadth-first search, fine for the small boards of this test set."""
from collections import deque


def neighbors(board, n):
    blank = board.index(0)
    row, col = divmod(blank, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < n and 0 <= c < n:
            nxt = list(board)
            nxt[blank], nxt[r * n + c] = nxt[r * n + c], 0
            yield tuple(nxt)


def bfs(start, n, banned=()):
    goal = tuple(list(range(1, n * n)) + [0])
    prev = {start: None, **{b: b for b in banned}}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        if board == goal:
            path = [goal]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            return path[::-1]
        for nxt in neighbors(board, n):
            if nxt not in prev:
                prev[nxt] = board
                queue.append(nxt)
    return None


def solve(start, n):
    return bfs(start, n)


def main():
    data = open("input.txt").read().split()
    n = int(data[0])
    path = solve(tuple(int(x) for x in data[1:]), n)
    with open("output.txt", "w") as out:
        if path is None:
            out.write("No solution possible\n")
            return
        out.write(f"Minimum number of moves = {len(path) - 1}\n")
        for board in path:
            out.write(f"{n}\n")
            for r in range(n):
                out.write(" ".join(map(str, board[r * n:(r + 1) * n])) + "\n")
            out.write("\n")


if __name__ == "__main__":
    main()
