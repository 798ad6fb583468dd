"""Hostile submission: prints everything a run can read about where it is, to find its case's
or its student's name: cwd, HOME, TMPDIR and the whole environment, argv, its mount table, every
visible process's command line, its cgroups, and the names of the folders around it. Then, on
stderr (whose last lines a visible case's feedback shows), the few of these that could name a case
or a student: its folder, argv, the environment's values and the mounts that are not system folders."""

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
    summary()
    with open("output.txt", "w", encoding="ascii") as out:
        out.write("0\n")


SYSTEM = ("/usr", "/etc", "/proc", "/sys", "/dev", "/lib", "/bin", "/sbin", "/opt", "/var")


def summary():
    """Six short lines on stderr: what a student would read back in the feedback."""
    mounts = [field for line in read("/proc/self/mountinfo").splitlines() for field in line.split()[3:5]]
    odd = sorted({m for m in mounts if m.startswith("/") and not m.startswith(SYSTEM) and m not in ("/", "/tmp")})
    lines = [f"SNOOP cwd={os.getcwd()} argv={' '.join(sys.argv)}",
             "SNOOP env=" + " ".join(sorted(set(os.environ.values()))),
             "SNOOP mounts=" + " ".join(odd),
             "SNOOP around=" + " ".join(name for folder in ("..", "../..") for name in listing(folder))]
    for line in lines:
        print(line[:200], file=sys.stderr)


def listing(folder):
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


if __name__ == "__main__":
    sys.exit(main())
