"""From a run's outcome to a verdict and points: parsing and verifying printed paths with the solver's
own parser and move rules, the run facts that decide a verdict (the closed set is :mod:`grader.model`),
time limits on CPU time, hints, scoring, and ``grade check``.

May import :mod:`grader.testsets`, :mod:`grader.model`, the layers below and the solver core; never the
sandbox or reports.
"""
