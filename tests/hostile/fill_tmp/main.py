"""Hostile submission: fills the machine's shared temp folders (/tmp, /var/tmp, /dev/shm) with
1 MB files until it cannot, leaving a marker file in each for a later run to find."""

import os
import sys

if __name__ == "__main__":
    marker = sys.argv[1]
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        chunk = b"\0" * (1024 * 1024)
        written = 0
        try:
            with open(os.path.join(folder, marker), "w") as note:
                note.write("left by a run\n")
            while written < 2048:  # at most 2 GB per folder if nothing stops it
                with open(os.path.join(folder, f"{marker}-{written:05}.bin"), "wb") as out:
                    out.write(chunk)
                written += 1
            print(f"{folder}: wrote {written} MB")
        except OSError as exc:
            print(f"{folder}: stopped after {written} MB: {exc.strerror}")
