"""Hostile submission: writes a first line of output, then never ends, without using any CPU."""

import time

if __name__ == "__main__":
    with open("output.txt", "w", encoding="utf-8") as out:
        out.write("Minimum number of moves = 4\n")
    while True:
        time.sleep(0.5)
