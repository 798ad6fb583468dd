"""A Board whose hamming() switches off the worker's per-call timer and starves its watchdog thread (the GIL
is never handed over), then hangs, on boards of 9x9 and up."""

import signal
import sys


class Board:
    def __init__(self, tiles):
        self._n = len(tiles)
        self._tiles = tuple(value for row in tiles for value in row)

    def dimension(self):
        return self._n

    def __str__(self):
        n = self._n
        lines = [str(n)]
        for r in range(n):
            lines.append(" ".join("%2d" % v for v in self._tiles[r * n:(r + 1) * n]))
        return "\n".join(lines) + "\n"

    toString = __str__

    def hamming(self):
        if self._n >= 9:
            sys.setswitchinterval(1e6)
        while self._n >= 9:
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
        return sum(1 for i, v in enumerate(self._tiles) if v and v != i + 1)

    def manhattan(self):
        n = self._n
        return sum(abs(i // n - (v - 1) // n) + abs(i % n - (v - 1) % n) for i, v in enumerate(self._tiles) if v)

    def isGoal(self):
        return all(v == i + 1 for i, v in enumerate(self._tiles[:-1])) and self._tiles[-1] == 0

    def equals(self, other):
        return isinstance(other, Board) and other._n == self._n and other._tiles == self._tiles

    def __eq__(self, other):
        return self.equals(other)

    def __hash__(self):
        return hash(self._tiles)

    def neighbors(self):
        n = self._n
        blank = self._tiles.index(0)
        r, c = divmod(blank, n)
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                t = list(self._tiles)
                other = (r + dr) * n + c + dc
                t[blank], t[other] = t[other], 0
                out.append(Board([t[k * n:(k + 1) * n] for k in range(n)]))
        return out

    def twin(self):
        n = self._n
        t = list(self._tiles)
        i, j = (0, 1) if t[0] and t[1] else (n, n + 1)
        t[i], t[j] = t[j], t[i]
        return Board([t[k * n:(k + 1) * n] for k in range(n)])
