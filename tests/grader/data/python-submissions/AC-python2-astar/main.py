# An 8-puzzle solver as a Python 2 course wrote them: print statements, xrange, integer '/',
# dict.has_key and iteritems. Only a Python 2 interpreter runs it.
import heapq
import sys


def read_board(name):
    numbers = [int(t) for t in open(name).read().split()]
    size = numbers[0]
    return size, tuple(numbers[1:1 + size * size])


def solvable(size, tiles):
    flat = [t for t in tiles if t != 0]
    inversions = 0
    for i in xrange(len(flat)):
        for j in xrange(i + 1, len(flat)):
            if flat[i] > flat[j]:
                inversions += 1
    if size % 2 == 1:
        return inversions % 2 == 0
    blank_row_from_bottom = size - tiles.index(0) / size
    return (inversions + blank_row_from_bottom) % 2 == 1


def manhattan(size, tiles):
    total = 0
    for index, tile in enumerate(tiles):
        if tile:
            total += abs(index / size - (tile - 1) / size) + abs(index % size - (tile - 1) % size)
    return total


def neighbours(size, tiles):
    blank = tiles.index(0)
    row, col = blank / size, blank % size
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < size and 0 <= c < size:
            swap = r * size + c
            board = list(tiles)
            board[blank], board[swap] = board[swap], board[blank]
            yield tuple(board)


def solve(size, start):
    parent = {start: None}
    cost = {start: 0}
    queue = [(manhattan(size, start), 0, start)]
    while queue:
        _, moves, board = heapq.heappop(queue)
        if moves > cost[board]:
            continue
        if manhattan(size, board) == 0:
            path = []
            while board is not None:
                path.append(board)
                board = parent[board]
            return path[::-1]
        for nxt in neighbours(size, board):
            if not cost.has_key(nxt) or moves + 1 < cost[nxt]:
                cost[nxt] = moves + 1
                parent[nxt] = board
                heapq.heappush(queue, (moves + 1 + manhattan(size, nxt), moves + 1, nxt))


def main():
    size, start = read_board("input.txt")
    out = open("output.txt", "w")
    if not solvable(size, start):
        print >> out, "No solution possible"
        return
    path = solve(size, start)
    print >> out, "Minimum number of moves = %d" % (len(path) - 1)
    for board in path:
        print >> out
        for row in xrange(size):
            print >> out, " ".join(str(t) for t in board[row * size:(row + 1) * size])
    out.close()


if __name__ == "__main__":
    main()
