"""Where courses grade: the Gradescope autograder zip and its results (``gradescope.py``, sized to the
container by ``container.py``), GitHub Classroom's reporter (``classroom.py``), LMS gradebook CSVs
(``lms.py``), and the recipes for grading on Slurm, Kubernetes and GitHub Actions (``clusters/``).

The top layer beside the CLI: may import the pipeline and everything below it.
"""
