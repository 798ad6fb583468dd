# Searches backwards from the goal to the input (A*, Manhattan distance to the input),
# then prints the path in the order it was found: goal first. That is the bug.
import heapq

def goal_of(n):
    return tuple(range(1, n * n)) + (0,)

def slide(state, n):
    i = state.index(0)
    row, col = i // n, i % n
    result = []
    for dr, dc in [(-1, 0), (1, 0), (0, -1), (0, 1)]:
        if 0 <= row + dr < n and 0 <= col + dc < n:
            j = (row + dr) * n + col + dc
            s = list(state)
            s[i], s[j] = s[j], s[i]
            result.append(tuple(s))
    return result

def inversions(state):
    t = [x for x in state if x]
    return sum(1 for a in range(len(t)) for b in range(a + 1, len(t)) if t[a] > t[b])

def distance(state, where, n):
    return sum(abs(i // n - where[t] // n) + abs(i % n - where[t] % n) for i, t in enumerate(state) if t)

def search(start, n):
    goal = goal_of(n)
    where = {tile: i for i, tile in enumerate(start)}
    back = {goal: None}
    cost = {goal: 0}
    todo = [(distance(goal, where, n), 0, goal)]
    while todo:
        _, g, s = heapq.heappop(todo)
        if s == start:
            break
        if g > cost[s]:
            continue
        for t in slide(s, n):
            if t not in cost or g + 1 < cost[t]:
                cost[t] = g + 1
                back[t] = s
                heapq.heappush(todo, (g + 1 + distance(t, where, n), g + 1, t))
    # walk from the input back to the goal ... and then reverse it "to put the start first"
    path = [start]
    while back[path[-1]] is not None:
        path.append(back[path[-1]])
    path.reverse()
    return path

text = open("input.txt").read().split()
n = int(text[0])
start = tuple(map(int, text[1:]))
solvable = inversions(start) % 2 == 0 if n % 2 else (inversions(start) + start.index(0) // n) % 2 == 1
with open("output.txt", "w") as f:
    if not solvable:
        print("No solution possible", file=f)
    else:
        path = search(start, n)
        print("Minimum number of moves =", len(path) - 1, file=f)
        for s in path:
            print(n, file=f)
            for r in range(n):
                print(*s[r * n:(r + 1) * n], file=f)
            print(file=f)
