"""Hostile submission: sends SIGKILL to its parent and to every process it may signal.

It refuses unless what it can reach is a sandbox: either it runs in another PID namespace
than the grader's (whose ``pid:[inode]`` is argv[1]), so kill(-1) reaches only that
namespace; or its parent is the grader's reaper shim running as another uid, so the kill
fails. Never run it any other way.
"""

import os
import signal
import sys


def parent_is_foreign_reaper(parent: int) -> bool:
    try:
        with open(f"/proc/{parent}/cmdline", "rb") as cmdline:
            is_reaper = b"reaper.py" in cmdline.read()
        with open(f"/proc/{parent}/status", encoding="ascii") as status:
            uid = next(int(line.split()[1]) for line in status if line.startswith("Uid:"))
    except (OSError, StopIteration, ValueError):
        return False
    return is_reaper and uid != os.getuid()


if __name__ == "__main__":
    grader_namespace = sys.argv[1]
    parent = os.getppid()
    if os.readlink("/proc/self/ns/pid") != grader_namespace:
        targets = [(-1, "everyone"), (parent, "my parent")]
    elif parent_is_foreign_reaper(parent):
        targets = [(parent, "my parent (the reaper)")]
    else:
        print("REFUSED: not inside a sandbox")
        sys.exit(99)
    for pid, name in targets:
        try:
            os.kill(pid, signal.SIGKILL)
            print(f"signalled {name}")
        except OSError as exc:
            print(f"could not signal {name}: {exc.strerror}")
    print("still running")
