"""What `grade -j 2` costs beyond the students' own runs: against a bare loop, in interleaved rounds.

    python bench/grade_overhead.py [--rounds 5] [--java 8 --python 8 | --copies 3] [--cases 24] [--compare OLD_TREE]

The class: copies of the Java and Python examples that finish (AC, WA, SUB, RTE; not the TLE, CE or NO
ones), taken in turn: ``--java 8 --python 8`` (the default, the class of issue #28: 8 Java and 8 Python
students), or ``--copies N`` copies of each example (3 gives 9 Java and 15 Python students); on the
first ``--cases`` 2x2/3x3 cases of the bundled test set. Each round runs, in an order that rotates:

- grade: ``grade CLASS -j 2 --cases ...`` as its own process, every isolation layer on;
- bare:  the same students compiled once (plain ``javac``; Python needs nothing), then every
  (student, case) in a fresh temp folder (the built files copied in, the input written), the same
  argv, RLIMIT_CPU and memory limit, stdout read, two at a time -- no sandbox, no judging, no reports;
- with ``--compare OLD_TREE`` (a checkout of older code, e.g. ``git archive BASE | tar -x -C OLD_TREE``):
  grade again with that tree first on PYTHONPATH, so old and new code meet the same load;
- with ``--tuned-bare``: the bare loop again, its javac given the grader's own JVM options
  (``JAVAC_JVM``: the quick JIT only, the serial collector), so that what the grader's machinery costs
  (sandbox, judging, reports) shows apart from what its cheaper compiles save. The bare loop's javac is
  otherwise plain, as a TA's loop would run it.

Wall time from the parent; CPU time of each mode's whole process tree (RUSAGE_CHILDREN). Every
process gets compiled bytecode (a cache folder of its own, as an installed package has), so an
environment that turns bytecode off does not charge grade for compiling itself at each start.
Prints each round with the machine's load, then the min, median and summed ratios to bare (the target:
<= 1.05x wall, <= 1.10x CPU), and where the wall sums' ratio falls over resamplings of the rounds. On a
shared machine the wall ratio moves with other jobs' load: compare rounds, not runs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "submissions"
JAVA = ["AC-java-princeton-padded", "WA-java-illegal-move", "RTE-java-crash"]
PYTHON = ["AC-python-correct", "SUB-python-suboptimal", "WA-python-first-board-missing", "WA-python-path-reversed",
          "WA-python-wrong-k"]


def roster(java: int, python: int, copies: int | None) -> list[str]:
    """The class's folder names: each example in turn until there are enough (``-1``, ``-2``: its copies)."""
    if copies is not None:
        return [f"{example}-{copy + 1}" for copy in range(copies) for example in JAVA + PYTHON]
    return [f"{examples[i % len(examples)]}-{i // len(examples) + 1}"
            for examples, count in ((JAVA, java), (PYTHON, python)) for i in range(count)]


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU of the whole tree) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def plan(base: Path, count: int, names: list[str]) -> dict:
    """Build the class once with the grader (for each student's run argv), and pick the cases."""
    from grader.intake.build import build
    from grader.testsets.assignment import find_assignment, load_assignment
    from grader.testsets.bundled import default_testset
    from grader.testsets.model import load_testset

    testset = load_testset(default_testset())
    assignment = load_assignment(find_assignment(testset.root))
    cases = [c for c in testset.cases if c.n <= 3 and c.solvable][:count]
    students = []
    for name in names:
        shutil.copytree(EXAMPLES / name.rsplit("-", 1)[0], base / "class" / name)
        built = build(base / "class" / name, Path(tempfile.mkdtemp(dir=base)), assignment)
        assert built.ok, (name, built.message)
        sources = sorted(str(p) for p in (base / "class" / name).rglob("*.java"))
        students.append({"name": name, "bundle": str(built.bundle), "argv": list(built.run_argv),
                         "jvm": built.jvm, "sources": sources})
    return {"testset": str(testset.root), "cases": [{"id": c.id, "input": str(c.input_path)} for c in cases],
            "limit": assignment.limits.wall_seconds, "memory_mb": assignment.limits.memory_mb,
            "input_file": assignment.input_file, "output_file": assignment.output_file, "students": students}


def bare(plan_file: Path, javac_options: list[str]) -> None:
    """The bare loop (run as its own process, so its CPU is counted like grade's); ``javac_options`` go to javac."""
    setup = json.loads(plan_file.read_text())
    limit, memory = setup["limit"], setup["memory_mb"] * 2**20
    work = Path(tempfile.mkdtemp(prefix="npuzzle-bare-"))
    try:
        jobs: list = []
        for student in setup["students"]:
            if student["sources"]:  # compiled once, as grade does (javac's time counts; the runs use the same classes)
                jobs.append((student, None))
            jobs += [(student, case) for case in setup["cases"]]

        def one(job) -> None:
            student, case = job
            if case is None:
                subprocess.run(["javac", *javac_options, "-nowarn", "-encoding", "UTF-8", "-d",
                                str(work / student["name"]), *student["sources"]], check=True, capture_output=True)
                return

            def limits() -> None:  # the grader's: CPU, and address space (data for a JVM, whose heap has -Xmx)
                resource.setrlimit(resource.RLIMIT_CPU, (int(limit) + 1, int(limit) + 2))
                room = memory + 64 * 2**20
                resource.setrlimit(resource.RLIMIT_DATA if student["jvm"] else resource.RLIMIT_AS, (room, room))

            folder = Path(tempfile.mkdtemp(dir=work))
            shutil.copytree(student["bundle"], folder, dirs_exist_ok=True)
            shutil.copyfile(case["input"], folder / setup["input_file"])
            argv = [a.replace("{input}", setup["input_file"]).replace("{output}", setup["output_file"])
                    for a in student["argv"]]
            # its own session, as grade's runs have: with autogroup scheduling a session shares the CPU as one
            subprocess.run(argv, check=False, cwd=folder, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=limit * 3,
                           preexec_fn=limits, start_new_session=True,
                           env={"PATH": "/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8"})
            (folder / setup["output_file"]).exists() and (folder / setup["output_file"]).read_bytes()
            shutil.rmtree(folder)

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(one, jobs))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def spread(rounds: list[dict[str, tuple[float, float]]], mode: str, baseline: str = "bare",
           draws: int = 2000) -> tuple[float, float]:
    """Where the ratio of wall sums (``mode`` / ``baseline``) falls when the rounds are drawn again with replacement
    (5th and 95th percentile, a fixed seed): how much the figure owes to which rounds the machine happened to
    give, which one run of rounds cannot otherwise tell."""
    pick = random.Random(28)
    ratios = []
    for _ in range(draws):
        chosen = [pick.choice(rounds) for _ in rounds]
        ratios.append(sum(r[mode][0] for r in chosen) / sum(r[baseline][0] for r in chosen))
    ratios.sort()
    return ratios[int(0.05 * draws)], ratios[int(0.95 * draws) - 1]


def summary(rounds: list[dict[str, tuple[float, float]]], mode: str, baseline: str) -> None:
    """``mode``'s ratios to ``baseline``: min and median of the rounds', and of the sums over the rounds (which weigh
    each round by its length and are steadier than any one round on a shared machine), and their spread."""
    wall = [r[mode][0] / r[baseline][0] for r in rounds]
    cpu = [r[mode][1] / r[baseline][1] for r in rounds]
    wall_sum, cpu_sum = (sum(r[mode][i] for r in rounds) / sum(r[baseline][i] for r in rounds) for i in (0, 1))
    print(f"{mode} / {baseline}: wall min {min(wall):.3f}x median {statistics.median(wall):.3f}x sums {wall_sum:.3f}x, "
          f"CPU min {min(cpu):.3f}x median {statistics.median(cpu):.3f}x sums {cpu_sum:.3f}x "
          f"(target <= 1.05x wall, <= 1.10x CPU)")
    low, high = spread(rounds, mode, baseline)
    print(f"  the wall sums' ratio over 2,000 resamplings of these rounds: 90 % within {low:.3f}x-{high:.3f}x")


Mode = tuple[list[str], dict[str, str], Path]


def modes(base: Path, setup: dict, compare: Path | None, tuned: bool) -> dict[str, Mode]:
    """Each mode's argv, environment and working folder. A grade runs in its own tree's folder: ``python -m``
    puts the working folder first on sys.path, before PYTHONPATH, so from another tree it would import that
    tree's grader (until session 9, ``--compare`` timed the new code twice this way)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(base / "bytecode")
    cases = [f"--cases={case['id']}" for case in setup["cases"]]

    def grade(tree: Path, out: str) -> list[str]:
        return [sys.executable, "-m", "grader.cli", str(base / "class"), "--testcases", setup["testset"],
                "--out", str(base / out), "-j", "2", "--no-progress", *cases]

    chosen: dict[str, Mode] = {
        "grade": (grade(REPO, "out"), {**env, "PYTHONPATH": str(REPO)}, REPO),
        "bare": ([sys.executable, str(Path(__file__).resolve()), "--bare", str(base / "plan.json")],
                 {**env, "PYTHONPATH": str(REPO)}, REPO)}
    if tuned:
        from grader.intake.build import JAVAC_JVM
        tuned_argv = [*chosen["bare"][0], "--javac-options", json.dumps(list(JAVAC_JVM))]
        chosen["tuned bare"] = (tuned_argv, chosen["bare"][1], REPO)
    if compare is not None:
        chosen["old grade"] = (grade(compare, "out-old"), {**env, "PYTHONPATH": str(compare.resolve())},
                               compare.resolve())
    for name, (_, environment, cwd) in chosen.items():
        if name.endswith("grade"):
            require_tree(name, environment, cwd)
    return chosen


def require_tree(name: str, env: dict[str, str], cwd: Path) -> None:
    """Stop unless ``name``'s processes import the grader of the tree they are meant to time."""
    found = subprocess.run([sys.executable, "-c", "import grader; print(grader.__file__)"], cwd=cwd, env=env,
                           check=True, capture_output=True, text=True).stdout.strip()
    if not Path(found).resolve().is_relative_to(cwd.resolve()):
        raise SystemExit(f"{name}: imports the grader from {found}, not from {cwd}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--cases", type=int, default=24)
    p.add_argument("--java", type=int, default=8, help="Java students (default 8, with 8 Python: issue #28's class)")
    p.add_argument("--python", type=int, default=8, help="Python students (default 8)")
    p.add_argument("--copies", type=int, help="instead, this many copies of each of the 8 examples")
    p.add_argument("--compare", type=Path, help="also grade with the code of this tree (older code), interleaved")
    p.add_argument("--tuned-bare", action="store_true",
                   help="also time the bare loop with the grader's javac options, and grade's ratios to it")
    p.add_argument("--bare", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--javac-options", default="[]", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bare:
        bare(args.bare, json.loads(args.javac_options))
        return 0
    base = Path(tempfile.mkdtemp(prefix="npuzzle-overhead-"))
    try:
        setup = plan(base, args.cases, roster(args.java, args.python, args.copies))
        (base / "plan.json").write_text(json.dumps(setup))
        chosen = modes(base, setup, args.compare, args.tuned_bare)
        for mode in chosen:  # warm-up, not timed: bytecode compiled, page cache and JIT-free caches filled
            timed(*chosen[mode])
        java = sum(1 for student in setup["students"] if student["jvm"])
        print(f"{len(setup['students'])} students ({java} Java, {len(setup['students']) - java} Python) x "
              f"{len(setup['cases'])} cases, -j 2, {args.rounds} rounds "
              f"(load {os.getloadavg()[0]:.1f} before)")
        baselines = [mode for mode in chosen if mode.endswith("bare")]
        pairs = [(mode, baseline) for mode in chosen if mode not in baselines for baseline in baselines]
        rounds: list[dict[str, tuple[float, float]]] = []
        names = list(chosen)
        for number in range(args.rounds):
            order = names[number % len(names):] + names[:number % len(names)]
            figures = {mode: timed(*chosen[mode]) for mode in order}
            rounds.append(figures)
            line = [f"round {number + 1}: " + " | ".join(
                f"{mode} {figures[mode][0]:6.2f} s wall {figures[mode][1]:6.2f} s CPU" for mode in names)]
            line += [f"{mode}/{baseline} {figures[mode][0] / figures[baseline][0]:.3f}x wall "
                     f"{figures[mode][1] / figures[baseline][1]:.3f}x CPU" for mode, baseline in pairs]
            print(" | ".join(line) + f"  (load {os.getloadavg()[0]:.1f})", flush=True)
        for mode, baseline in pairs:
            summary(rounds, mode, baseline)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
