"""From a run's outcome to a verdict and points: parsing and verifying printed paths with the solver's
own parser and move rules, the closed set of verdicts, time limits on CPU time, hints, scoring, and
``grade check``.

May import :mod:`grader.testsets`, the layers below and the solver core; never the sandbox or reports.
"""
