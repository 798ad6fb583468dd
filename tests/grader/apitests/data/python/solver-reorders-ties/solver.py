"""A correct A*, except that it breaks ties by popping every node of the lowest priority, taking the one with
the most moves, and pushing the others back: right answers, several times the heap operations."""

import heapq
import itertools

from board import Board


class _Node:
    __slots__ = ("board", "moves", "previous", "priority")

    def __init__(self, board, moves, previous):
        self.board, self.moves, self.previous = board, moves, previous
        self.priority = moves + board.manhattan()


class Solver:
    def __init__(self, initial):
        if initial is None:
            raise ValueError("initial board is None")
        self._solution = None
        counter = itertools.count()
        queues = [[], []]
        for index, start in enumerate((initial, initial.twin())):
            node = _Node(start, 0, None)
            heapq.heappush(queues[index], (node.priority, next(counter), node))
        while True:
            for index in (0, 1):
                tied = [heapq.heappop(queues[index])]
                while queues[index] and queues[index][0][0] == tied[0][0]:
                    tied.append(heapq.heappop(queues[index]))
                best = max(range(len(tied)), key=lambda i: tied[i][2].moves)
                for i, entry in enumerate(tied):
                    if i != best:
                        heapq.heappush(queues[index], entry)
                node = tied[best][2]
                if node.board.isGoal():
                    if index == 0:
                        path = []
                        while node is not None:
                            path.append(node.board)
                            node = node.previous
                        self._solution = path[::-1]
                    return
                for neighbor in node.board.neighbors():
                    if node.previous is not None and neighbor.equals(node.previous.board):
                        continue
                    child = _Node(neighbor, node.moves + 1, node)
                    heapq.heappush(queues[index], (child.priority, next(counter), child))

    def isSolvable(self):
        return self._solution is not None

    def moves(self):
        return -1 if self._solution is None else len(self._solution) - 1

    def solution(self):
        return None if self._solution is None else list(self._solution)
