"""Hostile submission: reads what an earlier run left in its uid's keyrings, then leaves its own input there.

It prints ``FOUND <data>`` for every key of an earlier run it can reach (the user, user
session and persistent keyrings, and a named keyring), or ``EMPTY``; then it stores its
input.txt in each of them, for the next run of its uid to find.
"""

import ctypes
import os
import sys

KEYCTL = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine)
ADD_KEY = {"x86_64": 248, "aarch64": 217}.get(os.uname().machine)
KEYCTL_GET_KEYRING_ID, KEYCTL_JOIN, KEYCTL_SEARCH, KEYCTL_READ, KEYCTL_LINK = 0, 1, 10, 11, 8
KEYCTL_GET_PERSISTENT = 22
USER, USER_SESSION, PROCESS = -4, -5, -2
libc = ctypes.CDLL(None, use_errno=True)


def keyctl(*args):
    return libc.syscall(KEYCTL, *(ctypes.c_long(a) if isinstance(a, int) else a for a in args))


def read(serial):
    buffer = ctypes.create_string_buffer(4096)
    size = keyctl(KEYCTL_READ, serial, buffer, 4096)
    return buffer.raw[:size] if size >= 0 else None


def rings(store=True):
    persistent = keyctl(KEYCTL_GET_PERSISTENT, -1, PROCESS)
    named = keyctl(KEYCTL_JOIN, ctypes.c_char_p(b"npuzzle-loot-ring"))
    if named > 0 and store:
        keyctl(KEYCTL_LINK, named, USER)  # keeps the named ring alive past this run
    return {"user": USER, "user-session": USER_SESSION, "persistent": persistent, "named": named}


if __name__ == "__main__":
    if KEYCTL is None:
        print("SKIPPED: unknown architecture")
        sys.exit(0)
    look_only = "--look" in sys.argv  # the tests' check of a uid's keyrings on the host
    found = []
    for name, ring in rings(store=not look_only).items():
        if isinstance(ring, int) and ring < 0 and ring not in (USER, USER_SESSION):
            continue
        serial = keyctl(KEYCTL_SEARCH, ring, ctypes.c_char_p(b"user"), ctypes.c_char_p(b"npuzzle-loot"), 0)
        data = read(serial) if serial > 0 else None
        if data is not None:
            found.append(f"FOUND {name}: {data.decode(errors='replace')}")
    print("\n".join(found) if found else "EMPTY")
    if look_only:
        sys.exit(0)
    loot = open("input.txt", "rb").read()
    for name, ring in rings().items():
        if ring is not None and (ring > 0 or ring in (USER, USER_SESSION)):
            libc.syscall(ADD_KEY, b"user", b"npuzzle-loot", loot, len(loot), ctypes.c_long(ring))
    with open("output.txt", "w") as out:
        out.write("stored\n")
