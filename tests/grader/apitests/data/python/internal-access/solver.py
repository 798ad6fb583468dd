"""A correct A* Solver that keys its visited set on the Board's private tiles (fine in Python, but past
the sheet's API: the reference Board cannot stand in for it, so its calls are counted on its own Board)."""

import heapq
import itertools


class Solver:
    def __init__(self, initial):
        if initial is None:
            raise TypeError("Solver needs a Board")
        self._path = None
        if not self._solvable(initial):
            return
        counter = itertools.count()
        frontier = [(initial.manhattan(), next(counter), 0, initial, None)]
        best = {initial._tiles: 0}
        parents = {}
        while frontier:
            _, _, moves, board, parent = heapq.heappop(frontier)
            if moves > best.get(board._tiles, moves):
                continue
            parents[board._tiles] = (board, parent)
            if board.isGoal():
                path = []
                key = board._tiles
                while key is not None:
                    here, parent = parents[key]
                    path.append(here)
                    key = parent._tiles if parent is not None else None
                self._path = path[::-1]
                return
            for neighbor in board.neighbors():
                if parent is not None and neighbor.equals(parent):
                    continue
                if moves + 1 < best.get(neighbor._tiles, moves + 2):
                    best[neighbor._tiles] = moves + 1
                    heapq.heappush(frontier, (moves + 1 + neighbor.manhattan(), next(counter), moves + 1, neighbor,
                                              board))

    @staticmethod
    def _solvable(board):
        tiles = [t for t in board._tiles if t]
        inversions = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
        n = board.dimension()
        if n % 2:
            return inversions % 2 == 0
        return (inversions + board._tiles.index(0) // n) % 2 == 1

    def isSolvable(self):
        return self._path is not None

    def moves(self):
        return -1 if self._path is None else len(self._path) - 1

    def solution(self):
        return None if self._path is None else list(self._path)
