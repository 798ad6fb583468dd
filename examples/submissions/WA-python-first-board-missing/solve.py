"""N-puzzle with A* (Manhattan distance). Bug: the path it prints leaves out the input board."""
import heapq


def parity_ok(board, n):
    tiles = [t for t in board if t]
    inversions = sum(tiles[i] > tiles[j] for i in range(len(tiles)) for j in range(i + 1, len(tiles)))
    if n % 2 == 1:
        return inversions % 2 == 0
    return (inversions + board.index(0) // n) % 2 == 1


def manhattan(board, n):
    return sum(abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n) for i, t in enumerate(board) if t)


def astar(board, n):
    target = tuple(list(range(1, n * n)) + [0])
    prev = {board: None}
    dist = {board: 0}
    queue = [(manhattan(board, n), 0, board)]
    while queue:
        _, g, b = heapq.heappop(queue)
        if b == target:
            break
        if g > dist[b]:
            continue
        z = b.index(0)
        r, c = divmod(z, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n:
                nb = list(b)
                nb[z], nb[rr * n + cc] = nb[rr * n + cc], 0
                nb = tuple(nb)
                if nb not in dist or g + 1 < dist[nb]:
                    dist[nb] = g + 1
                    prev[nb] = b
                    heapq.heappush(queue, (g + 1 + manhattan(nb, n), g + 1, nb))
    steps = []
    b = target
    while prev[b] is not None:  # stops before the input board: the bug
        steps.append(b)
        b = prev[b]
    return steps[::-1]


def main():
    data = open("input.txt").read().split()
    n = int(data[0])
    board = tuple(int(x) for x in data[1:])
    out = open("output.txt", "w")
    if not parity_ok(board, n):
        out.write("No solution possible\n")
    else:
        steps = astar(board, n)
        out.write(f"Minimum number of moves = {len(steps)}\n")
        for b in steps:
            out.write(f"{n}\n")
            for i in range(0, n * n, n):
                out.write(" ".join(str(t) for t in b[i:i + n]) + "\n")
            out.write("\n")
    out.close()


if __name__ == "__main__":
    main()
