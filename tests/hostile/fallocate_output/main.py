"""Hostile submission: reserves disk through its stdin, stdout and stderr with
fallocate(FALLOC_FL_KEEP_SIZE), which no file-size limit sees, then reports what it got."""

import ctypes
import os

FALLOC_FL_KEEP_SIZE = 1
GIGABYTE = 2**30

if __name__ == "__main__":
    libc = ctypes.CDLL(None, use_errno=True)
    lines = []
    for fd in (0, 1, 2):
        result = libc.fallocate(fd, FALLOC_FL_KEEP_SIZE, ctypes.c_long(0), ctypes.c_long(GIGABYTE))
        error = ctypes.get_errno()
        lines.append(f"fd {fd}: " + ("RESERVED 1 GB" if result == 0 else f"refused ({os.strerror(error)})"))
    print("\n".join(lines), flush=True)
    with open("output.txt", "w") as out:
        out.write("\n".join(lines) + "\n")
