"""Hostile submission: tries to read the given files (the manifest, another submission) by absolute path."""

import sys

if __name__ == "__main__":
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as leaked:
                print(f"READ {path}: {leaked.read()}")
        except OSError as exc:
            print(f"DENIED {path}: {exc.strerror}")
