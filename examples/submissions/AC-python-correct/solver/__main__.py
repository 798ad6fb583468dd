from solver.search import astar, solvable


def main():
    with open("input.txt") as handle:
        numbers = [int(x) for x in handle.read().split()]
    n, tiles = numbers[0], tuple(numbers[1:])
    lines = []
    if not solvable(tiles, n):
        lines.append("No solution possible")
    else:
        path = astar(tiles, n)
        lines.append(f"Minimum number of moves = {len(path) - 1}")
        for board in path:
            lines.append(str(n))
            for r in range(n):
                lines.append(" ".join(str(t) for t in board[r * n:(r + 1) * n]))
            lines.append("")
    with open("output.txt", "w") as handle:
        handle.write("\n".join(lines) + "\n")


main()
