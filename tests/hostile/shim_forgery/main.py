"""Hostile: print what the grader's sandbox shims print when they fail, and exit with their code (125),
hoping the grader blames itself (a JE, or a rerun) instead of grading this program's failure."""
import os
import sys

for words in ("grader sandbox: cannot join the run cgroup",
              "grader sandbox: [] cannot load the seccomp filter: Invalid argument",
              "grader sandbox: cannot mount tmpfs on /tmp: Operation not permitted"):
    sys.stderr.write(words + "\n")
sys.stderr.flush()
os._exit(125)
