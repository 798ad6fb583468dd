"""Hostile submission: leaves 500 sleeping children behind (bounded: never more than 500)."""

import os
import sys
import time

if __name__ == "__main__":
    started = 0
    for _ in range(500):
        try:
            pid = os.fork()
        except OSError:  # a process limit: stop, as a real program would crash here
            break
        if pid == 0:
            time.sleep(120)
            os._exit(0)
        started += 1
    print(f"started {started} sleepers", flush=True)
    sys.exit(0)
