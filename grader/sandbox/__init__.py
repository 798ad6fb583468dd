"""Running untrusted code: the isolation layers (bwrap, unshare, reaper), limits, rlimits, and
``grade doctor``. :func:`grader.sandbox.runner.run_command` is the only place a submission starts.

May import :mod:`grader.errors` and :mod:`grader.testsets`; knows nothing of verdicts or reports.
"""
