"""How a bwrap run's first process starts, and what it does before the program: the compiled init
(``boxinit``, built from ``boxinit.c``), the resident sandbox per box that a case's runs enter
(``resident``), and, without the init, the runner's admission of a held sandbox (``admission``).

Owns those starts, not the run (that is :mod:`grader.sandbox.runner`). May import the sandbox's ground
floor (limits, cgroups, rlimits, the bwrap backend) and ``solver.fileio``; nothing above the sandbox.
"""
