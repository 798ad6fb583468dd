"""Test sets and assignments: the manifest and ``assignment.toml`` models (with the course presets of
``presets/``), and generating, importing, certifying, validating and writing sets (``grade testcases``).

The lowest grader layer: may import :mod:`grader.model` (the records it reads
into), :mod:`grader.errors` and the solver core, nothing else of the grader.
"""
