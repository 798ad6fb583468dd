"""Where courses grade: the Gradescope autograder zip and its results, GitHub Classroom's reporter.

The top layer beside the CLI: may import the pipeline and everything below it.
"""
