"""What this machine and its tools can do, asked before or beside grading: ``doctor`` (``grade doctor``: the
isolation layers that work here and why others do not), ``system_tools`` (the system packages grading and the
tests use, and ``grade doctor --install``), ``jvm_probe`` (whether the JVM starts under a run's limits without
the student's code: the grader's own evidence before it calls a JVM failure its fault).

May import the rest of :mod:`grader.sandbox`; the sandbox's runtime never imports this package.
"""
