"""Hostile submission: at run time, makes output.txt a link to a file named in victim.path.

Were the grader to read the answer through it, as root, the target's content would land in
the student's feedback. Expected: NO ("output.txt is a link ... not read"), nothing read.
"""

import os

with open("victim.path", encoding="utf-8") as named:
    os.symlink(named.read().strip(), "output.txt")
