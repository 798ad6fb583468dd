"""From a submissions folder to runnable programs: discovering submissions (folders and zips) and
building them: :mod:`~grader.intake.build` detects the language and dispatches to one build per language
(:mod:`~grader.intake.java.java_build`: Java against the algs4 edition its sources use, with the
assignment's drivers placed in the student's package; :mod:`~grader.intake.python_build`;
:mod:`~grader.intake.command_build`), each giving a :class:`~grader.intake.build_record.Build`.

Everything here treats a submission's files as hostile: :mod:`~grader.intake.safe_copy` is the
one way to copy, read or write in a submission's, build's or run's folder (no link below a
root is ever followed), :mod:`~grader.intake.java.java_source` is the one reader of Java source (tree-sitter), and
:mod:`~grader.intake.timecap` caps each host-side step (a step past its cap is the
submission's verdict, never a stalled grader).

May import :mod:`grader.sandbox` (builds run there), :mod:`grader.judging` (hints, verdicts),
:mod:`grader.testsets` (the assignment) and the layers below.
"""
