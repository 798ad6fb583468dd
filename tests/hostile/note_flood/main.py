"""Hostile submission: a megabyte of answer lines, each a slightly different spelling of the
unsolvable wording, so that every line is a format note of its own.

It made 188,000 notes (18 MB of results.json for 4 cases, written again into the journal).
Expected: a few notes with counts per case, every case's entry small.
"""

import itertools

WORDS = ["No solution possible", "no Solution possible", "NO SOLUTION POSSIBLE", "No  solution possible",
         "no solution possible.", "No solution possible!", "nO sOlUtIoN pOsSiBlE"]
with open("output.txt", "w", encoding="utf-8") as out:
    written = 0
    for index in itertools.count():
        word = WORDS[index % len(WORDS)]
        line = (" " * (index % 5)) + word + (" " * (index % 3)) + "\n"
        out.write(line)
        written += len(line)
        if written > 950_000:  # under the 1 MB output limit: every line is read
            break
