"""The Python API harness: run inside the sandbox, next to a student's code, by the student's interpreter.

It is not imported by the grader: the grader copies it into the run folder and runs
``python -B _npuzzle_api/apih_main.py`` with the submission's folder as the
current one (stdlib only, Python 3.6+; the ``apih_*`` modules beside it hold the tests). The battery's
specification comes on stdin (read once, before any student code is imported, so the
student cannot read the nonce); the results go out on a private copy of stdout, one line
per test: ``@@api <nonce> {"name": ..., "passed": ..., "message": ...}``. The student's
own prints are discarded. Each test runs under a timer; a test that runs out of time,
raises, or returns nonsense fails with a message naming the method, the board (or its size
and seed) and what was expected and found. The grader trusts nothing here beyond the
lines it asked for (see ``grader.apitests.protocol``).
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import apih_core  # noqa: E402  (the harness's own modules first: the student's may share names)
from apih_board import BoardTests  # noqa: E402
from apih_core import Fail, RefBoard, Timeout, _describe, emit, timer  # noqa: E402
from apih_names import Api, find_classes  # noqa: E402
from apih_solver import SolverTests  # noqa: E402


class Battery(SolverTests, BoardTests):
    """Every test, as ``t_<name>`` with dots and dashes as underscores."""


def main():
    spec = json.loads(sys.stdin.read())
    apih_core.NONCE[0] = spec["nonce"]
    apih_core.OUT[0] = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the student's prints, even from C, go nowhere
    sys.stdout = open(os.devnull, "w")
    sys.stderr.flush()
    sys.stdin = open(os.devnull)
    apih_core.count_priority_queues()
    board_cls, solver_cls, modules, problems = find_classes(spec)
    tests = spec["tests"]
    detail = ("; ".join(problems) + "; ") if problems else ""

    def looked(what, names):
        return "no %s class found in %s (%slooked for classes named %s)" % (
            what, ", ".join(modules) or "the submission", detail, "/".join(names))

    if board_cls is None:
        message = looked("Board", spec.get("board_classes") or ["Board", "Puzzle"])
        for name in tests:
            emit(name, False, message)
        return
    if solver_cls is None:
        message = looked("Solver", spec.get("solver_classes") or ["Solver"])
        for name in [t for t in tests if t.startswith(("solver.", "timing."))]:
            emit(name, False, message)
        tests = [t for t in tests if not t.startswith(("solver.", "timing."))]
    styles = spec.get("styles") or ["princeton", "snake_case", "cmpe160"]
    api = Api(board_cls, solver_cls, modules, styles)
    battery = Battery(spec, api)
    battery.substitute, battery.substitute_problem = True, ""
    if any(t.startswith(("solver.", "timing.")) for t in tests) and spec.get("reference_board", True):
        _try_substitute(battery, api, spec)
    per_test = spec.get("test_seconds", 10)
    for name in tests:
        method = getattr(battery, "t_" + name.replace(".", "_").replace("-", "_"), None)
        if method is None:
            emit(name, False, "this harness has no test %s (grader and harness disagree)" % name)
            continue
        started = time.time()
        try:
            seconds = spec.get("slow_tests", {}).get(name, per_test)
            with timer(seconds):
                method()
        except Fail as fail:
            emit(name, False, str(fail))
        except Timeout:
            emit(name, False, "did not finish in %s s" % seconds)
        except RecursionError as exc:
            emit(name, False, "RecursionError: %s" % exc)
        except MemoryError:
            emit(name, False, "ran out of memory")
        except BaseException as exc:
            emit(name, False, "raised %s" % _describe(exc))
        else:
            emit(name, True, "passed in %.2f s" % (time.time() - started))


def _try_substitute(battery, api, spec):
    """Use the reference Board inside the student's Solver, unless the Solver reaches past the sheet's API."""
    modules = [m for m in sys.modules.values() if getattr(m, "Solver", None) is api.solver_cls]
    for module in modules:
        for attr in spec.get("board_classes") or ["Board", "Puzzle"]:
            if getattr(module, attr, None) is api.board_cls:
                setattr(module, attr, RefBoard)
    probe = (1, 2, 3, 4, 5, 6, 0, 7, 8)
    try:
        with timer(5):
            solver = api.solver_cls(RefBoard.of(probe, 3))
            ok = api.call(solver, "moves") == 2
    except BaseException as exc:
        ok, problem = False, _describe(exc)
    else:
        problem = "" if ok else "moves() was wrong with the reference Board"
    if not ok:
        for module in modules:
            for attr in spec.get("board_classes") or ["Board", "Puzzle"]:
                if getattr(module, attr, None) is RefBoard:
                    setattr(module, attr, api.board_cls)
        battery.substitute, battery.substitute_problem = False, problem


if __name__ == "__main__":
    main()
