# Python 2 only: print statements.
import sys

tokens = open("input.txt").read().split()
n = int(tokens[0])
out = open("output.txt", "w")
print >> out, "No solution possible"
print "done"
