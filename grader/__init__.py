"""npuzzle-grader's autograder: build, run, verify and score N-puzzle submissions."""
