"""What javac's own JVM options (``grader.intake.java.java_build.JAVAC_JVM``) save per build, against plain javac.

    python bench/javac_flags.py [--rounds 8]

Compiles the same sources with ``javac -encoding UTF-8 -nowarn -d OUT`` (plain, as a TA's loop would) and with the
grader's ``JAVAC_JVM`` options added, in interleaved rounds (the order flips each round), each compile a fresh
process into a fresh folder. Two source sets: every Java example submission in turn (2-3 files each, the size
of a student's), and a generated project of 40 classes, 60 methods each (2,400 lines, ~1 MB), the size of the
largest submissions. Prints the median wall and CPU seconds (the javac process tree's, RUSAGE_CHILDREN) of
each and the CPU ratio. Both must compile the same class files: the output folders are compared.
"""

from __future__ import annotations

import argparse
import filecmp
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import REPO

from grader.intake.build import JAVAC_JVM

EXAMPLES = REPO / "examples" / "submissions"


def generated(folder: Path, classes: int = 40, methods: int = 60) -> list[Path]:
    """A project of ``classes`` classes calling each other, with generics, method references and maps."""
    folder.mkdir(parents=True)
    paths = []
    for c in range(classes):
        body = [f"public class C{c} {{"]
        for m in range(methods):
            body.append(
                f"  static int m{m}(int[] a, java.util.List<String> s) {{ int t = 0;"
                f" for (int i = 0; i < a.length; i++) {{ t += a[i] * {m} + (s.isEmpty() ? 0 : s.get(i % s.size())"
                f".length()); if (t > 1000) t -= C{(c + 1) % classes}.m{m}(a, s); }}"
                f" java.util.Map<String, Integer> h = new java.util.HashMap<>(); h.merge(\"k\" + t, 1, Integer::sum);"
                f" return t + h.size(); }}")
        body.append("}")
        path = folder / f"C{c}.java"
        path.write_text("\n".join(body) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def compile_once(sources: list[Path], options: tuple[str, ...], out: Path) -> tuple[float, float]:
    """(wall, CPU of the javac process tree) of one compile into ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(["javac", *options, "-encoding", "UTF-8", "-nowarn", "-d", str(out), *map(str, sources)],
                   check=True, stdin=subprocess.DEVNULL, capture_output=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def same_classes(left: Path, right: Path) -> bool:
    """Whether two javac output folders hold the same files with the same bytes."""
    names = sorted(p.relative_to(left) for p in left.rglob("*.class"))
    return names == sorted(p.relative_to(right) for p in right.rglob("*.class")) and \
        all(filecmp.cmp(left / n, right / n, shallow=False) for n in names)


def measure(title: str, source_sets: list[list[Path]], rounds: int, work: Path) -> None:
    kinds = {"plain javac": (), "grader's JAVAC_JVM": JAVAC_JVM}
    outs = {kind: work / f"out-{number}" for number, kind in enumerate(kinds)}
    runs: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    for r in range(rounds):
        for sources in source_sets:
            order = list(kinds) if r % 2 == 0 else list(kinds)[::-1]
            for kind in order:
                runs[kind].append(compile_once(sources, kinds[kind], outs[kind]))
            if not same_classes(*outs.values()):
                raise SystemExit(f"{title}: the two compiles wrote different class files")
    print(f"\n{title}: {len(source_sets)} source set(s) x {rounds} rounds")
    for kind, figures in runs.items():
        print(f"  {kind:20} wall {statistics.median(w for w, _ in figures):6.3f} s   "
              f"CPU {statistics.median(c for _, c in figures):6.3f} s (medians)")
    plain, tuned = (sum(c for _, c in runs[k]) for k in kinds)
    print(f"  CPU, summed: {tuned / plain:.2f}x of plain javac")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=8, help="interleaved rounds (default 8)")
    args = p.parse_args()
    if shutil.which("javac") is None:
        print("javac not found: install a JDK", file=sys.stderr)
        return 2
    print("javac options compared:", " ".join(JAVAC_JVM))
    with tempfile.TemporaryDirectory(prefix="npuzzle-javac-bench-") as scratch:
        work = Path(scratch)
        examples = [sorted(folder.rglob("*.java")) for folder in sorted(EXAMPLES.iterdir())
                    if folder.name.startswith(("AC-java", "WA-java", "RTE-java", "SUB-java"))]
        measure("student-sized (the Java examples)", [s for s in examples if s], args.rounds, work)
        measure("large (40 generated classes)", [generated(work / "big")], args.rounds, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
