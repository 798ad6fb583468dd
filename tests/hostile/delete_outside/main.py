"""Hostile submission: tries to delete the given files and folders outside its directory."""

import os
import shutil
import sys

if __name__ == "__main__":
    for path in sys.argv[1:]:
        try:
            if os.path.isdir(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
            print(f"DELETED {path}")
        except OSError as exc:
            print(f"KEPT {path}: {exc.strerror}")
