"""Hostile submission: creates thousands of small files in its directory."""

import os

if __name__ == "__main__":
    os.mkdir("junk")
    for i in range(2000):
        with open(os.path.join("junk", f"f{i:05}.txt"), "w") as out:
            out.write("junk\n")
    print(len(os.listdir("junk")))
