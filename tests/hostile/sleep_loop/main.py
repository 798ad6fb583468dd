"""Hostile submission: never ends, without using any CPU."""

import time

if __name__ == "__main__":
    while True:
        time.sleep(0.5)
