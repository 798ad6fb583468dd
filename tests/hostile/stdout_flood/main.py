"""Hostile submission: prints 8 MB on stdout and on stderr."""

import sys

if __name__ == "__main__":
    line = b"x" * 1023 + b"\n"
    for _ in range(8 * 1024):
        sys.stdout.buffer.write(line)
        sys.stderr.buffer.write(line)
