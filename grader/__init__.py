"""npuzzle-grader's autograder: build, run, verify and score N-puzzle submissions.

assignment + test set → cases (:mod:`grader.testsets`); submissions/ → intake → build
(:mod:`grader.intake`); per (submission, case): run in the sandbox (:mod:`grader.sandbox`) →
outcome → parse → verify → verdict → points (:mod:`grader.judging`); then results → reporters
(:mod:`grader.reports`) and integrations (:mod:`grader.integrations`). The top level orchestrates:
:mod:`grader.pipeline`, :mod:`grader.journal`, :mod:`grader.shard`, :mod:`grader.merge` and the CLI.
Layers are enforced by import-linter (``lint-imports``; the contracts are in pyproject.toml): each package
may import only the layers below its own, and the whole grader may import only the solver's core (board and
move rules, formats, file edges, errors, the CLI kit and the optimal-length oracle :mod:`solver.solve`).
"""
