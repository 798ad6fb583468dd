import sys

from solver.cli import entry

sys.exit(entry())
