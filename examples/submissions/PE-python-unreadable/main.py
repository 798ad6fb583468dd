"""Prints the solution as a string of blank moves (U/D/L/R) -- another course's format, not boards."""
import heapq


def manhattan(state, n):
    d = 0
    for index, tile in enumerate(state):
        if tile != 0:
            d += abs(index // n - (tile - 1) // n) + abs(index % n - (tile - 1) % n)
    return d


def solvable(state, n):
    tiles = [t for t in state if t != 0]
    count = 0
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            count += tiles[i] > tiles[j]
    if n % 2 == 1:
        return count % 2 == 0
    return (count + state.index(0) // n) % 2 == 1


STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def solve(start, n):
    goal = tuple(range(1, n * n)) + (0,)
    open_list = [(manhattan(start, n), "", start)]
    best = {start: 0}
    while open_list:
        _, moves, state = heapq.heappop(open_list)
        if state == goal:
            return moves
        z = state.index(0)
        for letter, (dr, dc) in STEPS.items():
            r, c = z // n + dr, z % n + dc
            if 0 <= r < n and 0 <= c < n:
                s = list(state)
                s[z], s[r * n + c] = s[r * n + c], 0
                s = tuple(s)
                if len(moves) + 1 < best.get(s, 10 ** 9):
                    best[s] = len(moves) + 1
                    heapq.heappush(open_list, (len(moves) + 1 + manhattan(s, n), moves + letter, s))


tokens = open("input.txt").read().split()
size = int(tokens[0])
start = tuple(int(t) for t in tokens[1:])
with open("output.txt", "w") as f:
    if not solvable(start, size):
        f.write("No solution possible\n")
    else:
        moves = solve(start, size)
        f.write("Minimum number of moves = %d\n" % len(moves))
        f.write("Moves: " + " ".join(moves) + "\n")
