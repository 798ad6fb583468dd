"""The API tests: a submission's ``Board`` and ``Solver`` tested method by method, as the Princeton
assessment does, for Java and Python, inside the same sandbox as every other run.

:mod:`catalogue` names the tests and shares out the ``[api]`` part's points; :mod:`battery`
computes the boards and answers a harness needs (never the submission); :mod:`python` and
:mod:`java` launch the harnesses in ``harness/``; :mod:`protocol` reads their output without
trusting it; :mod:`run` runs and judges one submission's tests, re-running after a crash.

May import :mod:`grader.intake` (the built submission), :mod:`grader.sandbox` (runs),
:mod:`grader.judging` (the ApiResult model, hints), :mod:`grader.testsets` (cases, the
``[api]`` settings) and the layers below; :mod:`grader.pipeline` imports it.
"""
