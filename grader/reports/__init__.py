"""Every reader and writer of the results model (:mod:`grader.model.results`): the score table, results.json,
grades.csv, per-student feedback, JUnit XML and the HTML report. Each takes the typed results, never a dict.

May import :mod:`grader.judging` (verdicts, scoring), :mod:`grader.testsets` and the layers below;
never the sandbox, the intake or the orchestration above.
"""
