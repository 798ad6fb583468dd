# Solves correctly but prints the answer to the screen: output.txt is never written.
from collections import deque

with open("input.txt") as fh:
    nums = [int(tok) for tok in fh.read().split()]
N = nums[0]
start = tuple(nums[1:])
goal = tuple(list(range(1, N * N)) + [0])

flat = [t for t in start if t]
inv = sum(1 for a in range(len(flat)) for b in range(a + 1, len(flat)) if flat[a] > flat[b])
ok = inv % 2 == 0 if N % 2 else (inv + start.index(0) // N) % 2 == 1

if not ok:
    print("No solution possible")
else:
    parent = {start: None}
    q = deque([start])
    while q:
        cur = q.popleft()
        if cur == goal:
            break
        z = cur.index(0)
        for t in (z - N, z + N, z - 1, z + 1):
            if t < 0 or t >= N * N or (abs(t - z) == 1 and t // N != z // N):
                continue
            nxt = list(cur)
            nxt[z], nxt[t] = nxt[t], 0
            nxt = tuple(nxt)
            if nxt not in parent:
                parent[nxt] = cur
                q.append(nxt)
    seq = []
    cur = goal
    while cur is not None:
        seq.append(cur)
        cur = parent[cur]
    seq.reverse()
    print("Minimum number of moves =", len(seq) - 1)
    for b in seq:
        print(N)
        for r in range(N):
            print(" ".join(map(str, b[r * N:r * N + N])))
        print()
