# Solves correctly (A*, Manhattan distance) but prints the answer to the screen: output.txt is never written.
import heapq

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
    def dist(board):
        return sum(abs(i // N - (t - 1) // N) + abs(i % N - (t - 1) % N) for i, t in enumerate(board) if t)

    parent = {start: None}
    depth = {start: 0}
    heap = [(dist(start), 0, start)]
    while heap:
        _, d, cur = heapq.heappop(heap)
        if cur == goal:
            break
        if d > depth[cur]:
            continue
        z = cur.index(0)
        for t in (z - N, z + N, z - 1, z + 1):
            if t < 0 or t >= N * N or (abs(t - z) == 1 and t // N != z // N):
                continue
            nxt = list(cur)
            nxt[z], nxt[t] = nxt[t], 0
            nxt = tuple(nxt)
            if nxt not in depth or d + 1 < depth[nxt]:
                depth[nxt] = d + 1
                parent[nxt] = cur
                heapq.heappush(heap, (d + 1 + dist(nxt), d + 1, nxt))
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
