"""Hostile submission: ships a folder link, lib/ (the test points it at a folder it made).

Were the grader to copy it, it would copy the target folder's files, read as root, into
the run, where the program prints them. Expected: lib left out and named in the feedback,
nothing of it read; the rest is graded (it prints nothing: NO).
"""

import pathlib

for path in sorted(pathlib.Path("lib").glob("*")):
    print(path.read_text(encoding="utf-8"))
