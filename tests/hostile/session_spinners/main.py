"""Hostile submission: 200 busy loops, each in a session of its own, so no process-group
kill and no per-process CPU limit stops them together. Bounded (200) and only run inside the
hostile tests' PID namespace."""

import os
import sys
import time

if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 2 else 200
    for _ in range(count):
        if os.fork() == 0:
            os.setsid()
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                pass
            os._exit(0)
    print(f"spinning {count}", flush=True)
    time.sleep(120)
