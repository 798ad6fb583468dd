"""Hostile submission: prints everything a run can read about where it is, to find its case's
or its student's name: cwd, HOME, TMPDIR and the whole environment, argv, its mount table, every
visible process's command line, its cgroups, and the names of the folders around it."""

import os
import sys


def read(path):
    try:
        with open(path, "rb") as source:
            return source.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError as exc:
        return f"<{exc.strerror}>"


def main():
    print("cwd", os.getcwd())
    print("realpath", os.path.realpath("."))
    print("argv", sys.argv)
    for key, value in sorted(os.environ.items()):
        print("env", key, value)
    print(read("/proc/self/mountinfo"))
    print(read("/proc/self/cgroup"))
    for name in os.listdir("/proc"):
        if name.isdigit():
            print("cmdline", name, read(f"/proc/{name}/cmdline"), read(f"/proc/{name}/environ"))
    for folder in (".", "..", "../.."):
        try:
            print("listdir", folder, sorted(os.listdir(folder)))
        except OSError as exc:
            print("listdir", folder, exc.strerror)
    with open("output.txt", "w", encoding="ascii") as out:
        out.write("0\n")


if __name__ == "__main__":
    sys.exit(main())
