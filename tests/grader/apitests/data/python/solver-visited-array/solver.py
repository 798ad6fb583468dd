"""A correct A*, except that for 3x3 boards it sets up a cost table with a slot for every one of the
9! arrangements, twice (5.8 MB made for every Solver, and hardly used): right answers, too much memory."""

import heapq
import itertools
import math

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
        small = initial.dimension() <= 3
        best = [[None] * math.factorial(9), [None] * math.factorial(9)] if small else None
        for index, start in enumerate((initial, initial.twin())):
            node = _Node(start, 0, None)
            heapq.heappush(queues[index], (node.priority, next(counter), node))
        while True:
            for index in (0, 1):
                _, _, node = heapq.heappop(queues[index])
                if node.board.isGoal():
                    if index == 0:
                        path = []
                        while node is not None:
                            path.append(node.board)
                            node = node.previous
                        self._solution = path[::-1]
                    return
                if small:
                    best[index][node.moves] = node.priority
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
