"""Hostile submission: ships input.txt as a link (the test points it at a file it made).

Were the grader to write the case input through it, as root, it would overwrite the
link's target: any file on the machine. Expected: input.txt left out and named in the
feedback, the case's input written fresh, the target untouched.
"""

with open("input.txt", encoding="utf-8") as board:
    board.read()
with open("output.txt", "w", encoding="utf-8") as out:
    out.write("No solution possible\n")
