"""Python 3 code (an f-string) given to a course whose interpreter is Python 2.7."""
size = int(open("input.txt").read().split()[0])
with open("output.txt", "w") as out:
    out.write(f"Minimum number of moves = {0}\n")
