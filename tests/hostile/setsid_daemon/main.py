"""Hostile submission: starts a setsid daemon that keeps touching a marker file, then exits."""

import os
import sys
import time

if __name__ == "__main__":
    marker = sys.argv[1]
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:
                with open(marker, "a") as out:
                    out.write(".")
                time.sleep(0.05)
        os._exit(0)
    time.sleep(0.3)  # let the daemon start
    print("daemon started")
