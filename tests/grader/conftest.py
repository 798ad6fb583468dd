"""The grader's tests. data/ holds student programs and outputs: data to grade, never test modules."""

collect_ignore_glob = ["data/*"]
