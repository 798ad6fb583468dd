"""Java submissions: reading their sources (tree-sitter is the one reader: ``java_source``, on ``java_tree``,
``prelex`` and ``main_methods``),
the algs4 library editions they import (``algs4``), the course drivers compiled in beside them (``driver``),
javac's output read for the student (``java_compile``), which class is the program (``mains``), and the
Java build that ties them together (``java_build``).

May import the intake package's own helpers (``safe_copy``, ``timecap``, ``build_record``, ``build_steps``),
the sandbox, judging, testsets
and the solver core; never the grader's upper layers.
"""
