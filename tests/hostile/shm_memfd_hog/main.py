"""Hostile submission: holds memory that RLIMIT_AS never sees (memfd written, SysV shm detached).

``argv[1]`` is ``memfd`` or ``shm``, ``argv[2]`` the MB to hold. memfds are filled by
write() (no mapping, so no address space), 8 MB each (under any file-size limit); SysV segments are attached, touched and detached
one at a time (and never removed), so at most one counts against RLIMIT_AS.
"""

import ctypes
import os
import sys
import time

CHUNK = 64 * 2**20

if __name__ == "__main__":
    kind, total = sys.argv[1], int(sys.argv[2]) * 2**20
    held = 0
    if kind == "memfd":
        block = b"x" * (8 * 2**20)
        files = []
        while held < total:
            files.append(os.memfd_create("npuzzle-hog"))
            held += os.write(files[-1], block)
    else:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        while held < total:
            segment = libc.shmget(0, CHUNK, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
            if segment < 0:
                print(f"shmget failed: {os.strerror(ctypes.get_errno())}", flush=True)
                break
            address = libc.shmat(segment, None, 0)
            ctypes.memset(address, 1, CHUNK)
            libc.shmdt(ctypes.c_void_p(address))
            held += CHUNK
    print(f"holding {held >> 20} MB", flush=True)
    with open("output.txt", "w") as out:
        out.write(f"held {held >> 20} MB\n")
    time.sleep(0.5)
