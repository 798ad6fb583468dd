# Iterative-deepening A* (explicit stack). It never checks solvability, so on an
# unsolvable board it raises the bound forever and never stops.


def estimate(board, n):
    cost = 0
    for where, tile in enumerate(board):
        if tile:
            goal_row, goal_col = divmod(tile - 1, n)
            cost += abs(where // n - goal_row) + abs(where % n - goal_col)
    return cost


def children(board, n):
    hole = board.index(0)
    r, c = divmod(hole, n)
    spots = []
    if r > 0:
        spots.append(hole - n)
    if r < n - 1:
        spots.append(hole + n)
    if c > 0:
        spots.append(hole - 1)
    if c < n - 1:
        spots.append(hole + 1)
    for spot in spots:
        b = list(board)
        b[hole], b[spot] = b[spot], b[hole]
        yield tuple(b)


def deepen(start, n):
    limit = estimate(start, n)
    while True:
        next_limit = None
        stack = [(start, 0, [start])]
        while stack:
            board, g, path = stack.pop()
            f = g + estimate(board, n)
            if f > limit:
                next_limit = f if next_limit is None else min(next_limit, f)
                continue
            if f == g:
                return path
            for child in children(board, n):
                if child not in path:
                    stack.append((child, g + 1, path + [child]))
        limit = next_limit if next_limit is not None else limit + 2


if __name__ == "__main__":
    with open("input.txt") as source:
        numbers = [int(word) for word in source.read().split()]
    size, start = numbers[0], tuple(numbers[1:])
    path = deepen(start, size)
    with open("output.txt", "w") as sink:
        sink.write("Minimum number of moves = {}\n".format(len(path) - 1))
        for board in path:
            sink.write("{}\n".format(size))
            for row in range(size):
                sink.write(" ".join(str(t) for t in board[row * size:(row + 1) * size]) + "\n")
            sink.write("\n")
