"""How long `grade examples/submissions` takes (the README's main job), and runs per second.

    python bench/grade_examples.py [--testcases DIR] [-j N] [--copies K]

``--copies K`` grades K copies of every sample (ids suffixed), to see throughput at the
scale of a course (300 submissions is about 20 copies).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from grader.pipeline import grade
from grader.testsets.bundled import default_testset

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--testcases", type=Path, default=None, help="test set (default: as `grade` picks it)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--copies", type=int, default=1)
    args = p.parse_args()
    testset = args.testcases or default_testset(REPO)
    examples = REPO / "examples" / "submissions"
    with tempfile.TemporaryDirectory() as tmp:
        folder = examples
        if args.copies > 1:
            folder = Path(tmp) / "subs"
            for sample in sorted(p for p in examples.iterdir() if p.is_dir()):
                for copy in range(args.copies):
                    shutil.copytree(sample, folder / f"{sample.name}-{copy:03d}")
        started = time.perf_counter()
        results = grade(folder, testset, None, jobs=args.jobs)
        seconds = time.perf_counter() - started
    runs = sum(len(s.cases) for s in results.submissions)
    cpu = sum(c.cpu_seconds or 0 for s in results.submissions for c in s.cases)
    verdicts = Counter(s.verdict.value for s in results.submissions if s.verdict)
    print(f"test set:     {results.testset} ({len(results.cases)} cases) at {testset}")
    print(f"submissions:  {len(results.submissions)}  runs: {runs}  jobs: {args.jobs}")
    print(f"wall:         {seconds:.1f} s  ({runs / seconds:.1f} runs/s; submissions' own CPU {cpu:.1f} s)")
    print(f"verdicts:     {dict(sorted(verdicts.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
