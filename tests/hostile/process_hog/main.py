"""Hostile submission: takes every process slot it can get (up to 3000) and holds them asleep.

With one uid for every run, RLIMIT_NPROC is shared: a neighbour's javac or JVM then cannot
start a thread. Bounded (3000, each child sleeping) and only ever run inside the hostile
tests' PID namespace.
"""

import os
import sys
import time

if __name__ == "__main__":
    held = 0
    for _ in range(3000):
        try:
            pid = os.fork()
        except OSError as exc:
            print(f"fork failed after {held}: {exc.strerror}", flush=True)
            break
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        held += 1
    print(f"holding {held}", flush=True)
    time.sleep(60)
    sys.exit(0)
