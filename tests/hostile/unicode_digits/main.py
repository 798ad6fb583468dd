"""Hostile submission: a correct, optimal answer written in Arabic-Indic digits (U+0660..U+0669)
with U+2028 line separators, which Python's int() and str.split() accept as ASCII digits and breaks.

Expected: PE under --strict (ASCII digits, spaces and \\n or \\r\\n only), AC with a note otherwise.
Its own small A* (Manhattan distance): the grader's solver is not in the sandbox.
"""

import heapq

DIGITS = str.maketrans("0123456789", "".join(chr(0x660 + d) for d in range(10)))


def neighbours(board, n):
    blank = board.index(0)
    row, col = divmod(blank, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < n and 0 <= c < n:
            swapped = list(board)
            swapped[blank], swapped[r * n + c] = swapped[r * n + c], 0
            yield tuple(swapped)


def distance(board, n):
    return sum(abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n) for i, t in enumerate(board) if t)


def solvable(board, n):
    tiles = [t for t in board if t]
    inversions = sum(a > b for i, a in enumerate(tiles) for b in tiles[i + 1:])
    blank_row_from_bottom = n - board.index(0) // n
    return inversions % 2 == 0 if n % 2 else (inversions + blank_row_from_bottom) % 2 == 1


def astar(start, n):
    goal = tuple(range(1, n * n)) + (0,)
    frontier, parent, cost = [(distance(start, n), 0, start)], {start: None}, {start: 0}
    while frontier:
        _, g, board = heapq.heappop(frontier)
        if board == goal:
            path = [board]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        if g > cost[board]:
            continue
        for nxt in neighbours(board, n):
            if g + 1 < cost.get(nxt, 1 << 30):
                cost[nxt], parent[nxt] = g + 1, board
                heapq.heappush(frontier, (g + 1 + distance(nxt, n), g + 1, nxt))
    return None


def main():
    with open("input.txt", encoding="ascii") as source:
        numbers = [int(x) for x in source.read().split()]
    n, board = numbers[0], tuple(numbers[1:])
    if not solvable(board, n):
        lines = ["No solution possible"]
    else:
        path = astar(board, n)
        lines = [f"Minimum number of moves = {len(path) - 1}"]
        for step in path:
            lines += [str(n)] + [" ".join(map(str, step[r * n:(r + 1) * n])) for r in range(n)] + [""]
    with open("output.txt", "w", encoding="utf-8") as out:
        # a U+2028 after every line, so the one-line unsolvable answer has a non-ASCII break too
        out.write("\u2028".join(lines + [""]).translate(DIGITS) + "\n")


main()
