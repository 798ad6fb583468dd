"""The API tests: a submission's ``Board`` and ``Solver`` tested method by method, as the Princeton
assessment does, for Java and Python, inside the same sandbox as every other run.

:mod:`catalogue` names the tests and shares out the ``[api]`` part's points; :mod:`battery`
computes the boards and answers (visible cases and generated boards only, never the submission).
:mod:`judge` runs the tests (:mod:`board_checks`, :mod:`solver_checks`, answers from
:mod:`refmodel`) in the grader's process and drives the student's classes in a sandboxed worker
over a socket (:mod:`remote`, :mod:`remote_api`), cross-checking the worker's measures from
outside (:mod:`outside`). :mod:`python` launches ``harness/python/apiw_worker.py``, :mod:`java`
``harness/java/NpzApiWorker.java``; both speak the same protocol. :mod:`run` runs and judges one
submission's tests, restarting a worker after a crash; :mod:`protocol` holds what they share.

May import :mod:`grader.intake` (the built submission), :mod:`grader.sandbox` (runs),
:mod:`grader.judging` (the ApiResult model, hints), :mod:`grader.testsets` (cases, the
``[api]`` settings) and the layers below; :mod:`grader.pipeline` imports it.
"""
