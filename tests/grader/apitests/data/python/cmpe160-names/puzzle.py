"""A correct board with the CMPE 160 spellings (class Puzzle, h, is_completed, get_adjacents), written for the API tests."""


class Puzzle:
    def __init__(self, tiles):
        self._n = len(tiles)
        self._tiles = tuple(value for row in tiles for value in row)

    def size(self):
        return self._n

    def __str__(self):
        n = self._n
        lines = [str(n)]
        for r in range(n):
            lines.append(" ".join("%2d" % v for v in self._tiles[r * n:(r + 1) * n]))
        return "\n".join(lines) + "\n"


    def hamming(self):
        return sum(1 for i, v in enumerate(self._tiles) if v and v != i + 1)

    def h(self):
        n = self._n
        return sum(abs(i // n - (v - 1) // n) + abs(i % n - (v - 1) % n) for i, v in enumerate(self._tiles) if v)

    def is_completed(self):
        return all(v == i + 1 for i, v in enumerate(self._tiles[:-1])) and self._tiles[-1] == 0

    def equals(self, other):
        return isinstance(other, Puzzle) and other._n == self._n and other._tiles == self._tiles

    def __eq__(self, other):
        return self.equals(other)

    def __hash__(self):
        return hash(self._tiles)

    def get_adjacents(self):
        n = self._n
        blank = self._tiles.index(0)
        r, c = divmod(blank, n)
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                t = list(self._tiles)
                other = (r + dr) * n + c + dc
                t[blank], t[other] = t[other], 0
                out.append(Puzzle([t[k * n:(k + 1) * n] for k in range(n)]))
        return out

    def twin(self):
        n = self._n
        t = list(self._tiles)
        i, j = (0, 1) if t[0] and t[1] else (n, n + 1)
        t[i], t[j] = t[j], t[i]
        return Puzzle([t[k * n:(k + 1) * n] for k in range(n)])
