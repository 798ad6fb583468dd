"""A well-behaved submission that needs process slots: 32 threads and 8 child processes,
as a JVM or javac does; then reads input.txt and writes output.txt like well_behaved."""

import subprocess
import threading

if __name__ == "__main__":
    totals = []
    threads = [threading.Thread(target=lambda: totals.append(1)) for _ in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    children = [subprocess.run(["/bin/true"], check=False).returncode for _ in range(8)]
    with open("input.txt", encoding="utf-8") as source:
        numbers = [int(word) for word in source.read().split()]
    with open("output.txt", "w", encoding="utf-8") as out:
        out.write(f"sum = {sum(numbers)}\n")
    print(f"read {len(numbers)} numbers with {len(totals)} threads and {children.count(0)} children")
