"""The results model and every reader and writer of it: the score table, results.json, grades.csv,
per-student feedback, JUnit XML and the HTML report.

May import :mod:`grader.judging` (verdicts, scoring), :mod:`grader.testsets` and the layers below;
never the sandbox, the intake or the orchestration above.
"""
