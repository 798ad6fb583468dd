"""Valid on Python 3.10+, a syntax error on the assignment's PyPy (Python 3.9): the check must use PyPy."""
numbers = [int(t) for t in open("input.txt").read().split()]
match numbers:
    case [n, *tiles]:
        print(n, tiles)
