"""The full API battery (grader/apitests) of one submission, timed: every depth 1-31 on 3x3, boards up to
127x127, the Princeton test set's files, in the sandbox, as ``grade`` runs it.

    python bench/apitests.py [SUBMISSION ...] [--testcases testcases/princeton] [--repeat 1]

Default submissions: the correct Java and Python samples of tests/grader/apitests/data. For each it
prints the wall time of the whole API part in one harness run at a time and with the assignment's
``parallel`` runs at once (Python only; target: under 20 s on 2 cores), their ratio, the baseline of one harness
run with no test (start-up, imports, the JVM), the tests passed, and the slowest tests.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from grader.apitests.battery import Battery  # noqa: E402
from grader.apitests.catalogue import TESTS  # noqa: E402
from grader.apitests.run import run_api_tests  # noqa: E402
from grader.intake.build import build  # noqa: E402
from grader.testsets.apiconfig import ApiConfig  # noqa: E402
from grader.testsets.assignment import find_assignment, load_assignment  # noqa: E402
from grader.testsets.model import load_testset  # noqa: E402

SAMPLES = REPO / "tests" / "grader" / "apitests" / "data"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("submissions", nargs="*", type=Path,
                   default=[SAMPLES / "java" / "correct", SAMPLES / "python" / "correct"])
    p.add_argument("--testcases", type=Path, default=REPO / "testcases" / "princeton")
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    testset = load_testset(args.testcases)
    assignment = load_assignment(find_assignment(testset.root))
    config = assignment.api or ApiConfig()
    started = time.perf_counter()
    battery = Battery(testset.cases, config)
    print(f"battery: {len(battery.common['files'])} files, {len(battery.common['depth_boards'])} boards of known "
          f"depth, sizes {config.sizes}; computed in {time.perf_counter() - started:.2f} s")
    base = Path(tempfile.mkdtemp(prefix="npuzzle-bench-api-"))
    base.chmod(0o711)
    counter = iter(range(1_000_000))

    def folder(label: str = "run") -> Path:
        made = base / f"{next(counter):05d}-{label}"
        made.mkdir(mode=0o711)
        made.chmod(0o711)
        return made

    skip_all = ApiConfig(**{**config.__dict__, "skip": tuple(t.name for t in TESTS)})
    one_lane = ApiConfig(**{**config.__dict__, "parallel": 1})
    print(f"{'submission':<28} {'baseline s':>10} {'1 run s':>9} {str(config.parallel) + ' at once s':>12} "
          f"{'ratio':>6} {'passed':>8}  slowest")
    try:
        for source in args.submissions:
            built = build(source, folder("build"), assignment)
            if not built.ok:
                print(f"{source.name:<28} build failed: {built.message}")
                continue
            base_s = _timed(lambda: _baseline(built, battery, skip_all, assignment, folder))
            for _ in range(args.repeat):
                serial: list = []
                serial_s = _timed(lambda: serial.extend(run_api_tests(built, battery, one_lane, assignment, folder)))
                results: list = []
                seconds = _timed(lambda: results.extend(run_api_tests(built, battery, config, assignment, folder)))
                passed = sum(r.passed for r in results)
                same = [r.passed for r in results] == [r.passed for r in serial]
                slow = sorted(((float(r.message.split()[2]), r.name) for r in results
                               if r.passed and r.message.startswith("passed in")), reverse=True)[:3]
                print(f"{source.parent.name + '/' + source.name:<28} {base_s:>10.2f} {serial_s:>9.2f} {seconds:>12.2f} "
                      f"{serial_s / seconds:>6.2f} {passed:>4}/{len(results):<3}  "
                      + ", ".join(f"{n} {s:.1f}s" for s, n in slow) + ("" if same else "   RESULTS DIFFER"))
                for r in results:
                    if not r.passed:
                        print(f"    FAILED {r.name}: {r.message.splitlines()[0][:150]}")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def _baseline(built, battery, config, assignment, folder) -> None:
    """One harness run that runs no test: what starting the harness costs."""
    from grader.apitests import java, python
    from grader.sandbox import runner

    launcher = {"java": java, "python": python}[built.language]
    workdir = folder("baseline")
    prepared = launcher.prepare(built, workdir, assignment, battery.spec([]))
    runner.run_command(list(prepared.argv), workdir, runner.Limits(wall_seconds=60, jvm=built.jvm),
                       stdin_data=prepared.stdin, readable=prepared.readable)


def _timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
