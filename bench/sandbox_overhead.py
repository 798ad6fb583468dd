"""Per-run overhead of the sandbox: a case's run (a box, :mod:`grader.sandbox.folders.box`, where this code
has one) and ``run_command`` in a folder on disk (a build's run), every layer on, against a bare
``subprocess.run`` of the same tiny program, interleaved in one process so machine load hits all alike.

    python bench/sandbox_overhead.py                 # /bin/true, 40 runs each
    python bench/sandbox_overhead.py --runs 100 --program /usr/bin/python3 -c pass
    NPUZZLE_SANDBOX_DISABLE=bwrap python bench/sandbox_overhead.py   # a weaker mode

Each run puts a small input file in its folder first, as a case run does. Prints the layers, then
per side the median and 90th percentile wall time and the CPU time per run of this process and of
its children (bwrap, the init, setpriv, the program), and the difference of the medians (the
target: at most 30 ms more than bare). To compare with older code, copy this script into a
checkout of it (it runs the ``grader`` beside itself) and run both, one after the other.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from grader.sandbox import isolation, runner, sweep  # noqa: E402

try:
    from grader.sandbox.folders import box
except ImportError:  # older code: every run in a folder on disk
    box = None

TARGET_MS = 30.0


def cpu() -> tuple[float, float]:
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime, children.ru_utime + children.ru_stime + resident_cpu()


def _tree_ticks(pid: int) -> int:
    """CPU ticks of ``pid``, of all it reaped, and of its live descendants (from /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0
    return sum(int(f) for f in fields[11:15]) + sum(_tree_ticks(int(child)) for child in children)


def resident_cpu() -> float:
    """The CPU time of the live resident sandboxes (their bwrap, init and every run they reaped): their
    runs are not this process's children until a resident ends and is reaped."""
    made = box._SHELF._made if box is not None and hasattr(box, "_SHELF") else []
    pids = [pid for each in made if hasattr(each, "residents") for pid in each.residents.pids()]
    return sum(map(_tree_ticks, pids)) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="runs of each side (default 40)")
    parser.add_argument("--program", nargs=argparse.REMAINDER, default=["/bin/true"],
                        help="the program and its arguments (default /bin/true); last on the line")
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isolation.SandboxWarning)
        plan = isolation.plan()
    print("layers: " + ", ".join(plan.layers))
    folder = sweep.make_temp_folder()
    limits = runner.Limits(wall_seconds=10)

    def bare(number: int) -> None:
        workdir = folder / f"bare{number}"
        workdir.mkdir()
        (workdir / "input.txt").write_text("3\n1 2 3\n4 5 6\n7 8 0\n")
        subprocess.run(args.program, cwd=workdir, stdin=subprocess.DEVNULL, capture_output=True, check=False,
                       start_new_session=True)
        shutil.rmtree(workdir)

    def on_disk(number: int) -> None:
        workdir = folder / f"disk{number}"
        workdir.mkdir()
        (workdir / "input.txt").write_text("3\n1 2 3\n4 5 6\n7 8 0\n")
        runner.run_command(args.program, workdir, limits, keep=("output.txt",))
        shutil.rmtree(workdir)

    def in_box(number: int) -> None:
        with box.box() as place:
            (place.path / "input.txt").write_text("3\n1 2 3\n4 5 6\n7 8 0\n")
            place.run(args.program, limits)

    sides: dict[str, Callable[[int], None]] = {"bare subprocess.run": bare, "run_command, folder on disk": on_disk}
    if box is not None:
        sides["a case's box, every layer"] = in_box
    walls: dict[str, list[float]] = {name: [] for name in sides}
    cpus = {name: [0.0, 0.0] for name in sides}
    try:
        for number in range(args.runs + 2):  # the first two of each warm caches and make the slot
            for name, side in sides.items():
                before, started = cpu(), time.perf_counter()
                side(number)
                wall, after = (time.perf_counter() - started) * 1000, cpu()
                if number >= 2:
                    walls[name].append(wall)
                    cpus[name][0] += (after[0] - before[0]) * 1000
                    cpus[name][1] += (after[1] - before[1]) * 1000
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"program: {' '.join(args.program)}   runs: {args.runs} each, interleaved   "
          f"(load {os.getloadavg()[0]:.1f})")
    for name, values in walls.items():
        p90 = statistics.quantiles(values, n=10)[-1] if len(values) >= 10 else max(values)
        mine, children = (total / args.runs for total in cpus[name])
        print(f"{name:<29} median {statistics.median(values):7.1f} ms   p90 {p90:7.1f} ms   CPU per run: "
              f"grader {mine:5.2f} ms + children {children:5.2f} ms = {mine + children:5.2f} ms")
    boxed = walls.get("a case's box, every layer") or walls["run_command, folder on disk"]
    extra = statistics.median(boxed) - statistics.median(walls["bare subprocess.run"])
    print(f"overhead of a case's run (median difference): {extra:.1f} ms per run   target <= {TARGET_MS:.0f} ms   "
          f"{'met' if extra <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
