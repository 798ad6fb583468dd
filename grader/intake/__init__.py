"""From a submissions folder to runnable programs: discovering submissions (folders and zips) and
building them (compiling Java, checking Python, finding the entry point).

May import :mod:`grader.sandbox` (builds run there), :mod:`grader.judging` (hints, verdicts),
:mod:`grader.testsets` (the assignment) and the layers below.
"""
