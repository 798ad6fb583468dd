"""Where a run's files live: the per-worker box (one tmpfs per slot, emptied between runs), a build's
workdir and its quota, the private temp folders, and the copy back of what the grader reads.

Owns the files around a run, not the run itself (that is :mod:`grader.sandbox.runner`). May import the
sandbox's ground floor (limits, cgroups, uids, isolation, runner for the box's runs) and ``grader.errors``.
"""
