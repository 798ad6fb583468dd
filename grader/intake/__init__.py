"""From a submissions folder to runnable programs: discovering submissions (folders and zips) and
building them (compiling Java against the algs4 edition its sources use, with the assignment's drivers
placed in the student's package; checking Python; finding the entry point).

May import :mod:`grader.sandbox` (builds run there), :mod:`grader.judging` (hints, verdicts),
:mod:`grader.testsets` (the assignment) and the layers below.
"""
