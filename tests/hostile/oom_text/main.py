"""Hostile submission: prints every out-of-memory message a runtime writes, without using memory,
and fails, so that its failure reads as MLE (the limit's fault) instead of its own RTE.
Expected: RTE on every case, with the grader's note that it held far less than its limit.
"""

import sys

sys.stderr.write("Traceback (most recent call last):\nMemoryError\n"
                 'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n'
                 "terminate called after throwing an instance of 'std::bad_alloc'\n"
                 "Cannot allocate memory\nout of memory\nOut of memory\n"
                 "There is insufficient memory for the Java Runtime Environment to continue.\n"
                 "os::commit_memory failed\n")
sys.exit(1)
