"""A* over tuples of tiles, Manhattan distance, blank = 0, goal has the blank last."""

import heapq


def manhattan(tiles, n):
    total = 0
    for pos, tile in enumerate(tiles):
        if tile:
            total += abs(pos // n - (tile - 1) // n) + abs(pos % n - (tile - 1) % n)
    return total


def solvable(tiles, n):
    seq = [t for t in tiles if t]
    inversions = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])
    if n % 2:
        return inversions % 2 == 0
    return (inversions + tiles.index(0) // n) % 2 == 1


def neighbours(tiles, n):
    blank = tiles.index(0)
    row, col = divmod(blank, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < n and 0 <= c < n:
            swapped = list(tiles)
            swapped[blank], swapped[r * n + c] = swapped[r * n + c], 0
            yield tuple(swapped)


def astar(start, n):
    goal = tuple(range(1, n * n)) + (0,)
    parent = {start: None}
    cost = {start: 0}
    frontier = [(manhattan(start, n), 0, start)]
    while frontier:
        _, g, board = heapq.heappop(frontier)
        if board == goal:
            path = []
            while board is not None:
                path.append(board)
                board = parent[board]
            return path[::-1]
        if g > cost[board]:
            continue
        for nxt in neighbours(board, n):
            if nxt not in cost or g + 1 < cost[nxt]:
                cost[nxt] = g + 1
                parent[nxt] = board
                heapq.heappush(frontier, (g + 1 + manhattan(nxt, n), g + 1, nxt))
    return None
