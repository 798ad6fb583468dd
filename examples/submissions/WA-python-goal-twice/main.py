"""A* with the Manhattan heuristic. Prints the path and then, "to be clear", the goal again."""
import heapq
import itertools


class Node:
    def __init__(self, board, moves, parent):
        self.board, self.moves, self.parent = board, moves, parent


def manhattan(board, n):
    return sum(abs(i // n - (t - 1) // n) + abs(i % n - (t - 1) % n) for i, t in enumerate(board) if t)


def expand(board, n):
    z = board.index(0)
    for d in (-n, n, -1, 1):
        t = z + d
        if d in (-1, 1) and t // n != z // n:
            continue
        if 0 <= t < n * n:
            b = list(board)
            b[z], b[t] = b[t], b[z]
            yield tuple(b)


def is_solvable(board, n):
    seen = [t for t in board if t]
    inv = sum(1 for i in range(len(seen)) for j in range(i) if seen[j] > seen[i])
    return (inv % 2 == 0) if n % 2 else ((inv + board.index(0) // n) % 2 == 1)


def solve(board, n):
    tie = itertools.count()
    best = {board: 0}
    pq = [(manhattan(board, n), next(tie), Node(board, 0, None))]
    while pq:
        _, _, node = heapq.heappop(pq)
        if manhattan(node.board, n) == 0:
            return node
        for nb in expand(node.board, n):
            if best.get(nb, 1 << 30) > node.moves + 1:
                best[nb] = node.moves + 1
                heapq.heappush(pq, (node.moves + 1 + manhattan(nb, n), next(tie), Node(nb, node.moves + 1, node)))


def show(board, n):
    return "%d\n" % n + "\n".join(" ".join(map(str, board[i:i + n])) for i in range(0, n * n, n)) + "\n\n"


def main():
    nums = [int(x) for x in open("input.txt").read().split()]
    n, board = nums[0], tuple(nums[1:])
    with open("output.txt", "w") as f:
        if not is_solvable(board, n):
            f.write("No solution possible\n")
            return
        node = solve(board, n)
        boards = []
        while node:
            boards.append(node.board)
            node = node.parent
        boards.reverse()
        f.write("Minimum number of moves = %d\n" % (len(boards) - 1))
        for b in boards:
            f.write(show(b, n))
        f.write(show(boards[-1], n))  # the final state, once more


main()
