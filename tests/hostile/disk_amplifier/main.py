"""Hostile submission: leaves in its folder what costs a naive copy back far more disk than the
run held: a sparse answer file (one byte of data, megabytes of size), a file with hundreds of
hard links, and thousands of small files. ``argv[1]`` picks them: sparse, links, many (comma-separated);
all three when it is not given (as a grading run starts it).
"""

import os
import sys

SPARSE_BYTES = 12 * 2**20   # under the file-size limit the tests give
LINKED_BYTES = 2 * 2**20
LINKS = 300                 # 600 MB if each link were copied as a file
MANY = 20000


def main():
    kinds = sys.argv[1].split(",") if len(sys.argv) > 1 else ["sparse", "links", "many"]
    with open("output.txt", "wb") as out:
        if "sparse" in kinds:
            out.seek(SPARSE_BYTES - 2)
        out.write(b"0\n")
    if "sparse" in kinds:
        with open("hole", "wb") as hole:
            hole.truncate(SPARSE_BYTES)
    if "links" in kinds:
        os.mkdir("linked")
        with open("linked/data", "wb") as data:
            data.write(os.urandom(LINKED_BYTES))
        for n in range(LINKS):
            os.link("linked/data", f"linked/copy{n}")
    if "many" in kinds:
        os.mkdir("many")
        for n in range(MANY):
            open(f"many/f{n}", "wb").close()
    print("left", ",".join(kinds) or "nothing")


if __name__ == "__main__":
    sys.exit(main())
