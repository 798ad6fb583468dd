"""The Python API worker: a thin RPC server that runs inside the sandbox, next to the student's code.

It decides nothing. The judge (``grader.apitests.judge``, in the grader's own process, which
never imports student code) connects it through the Unix socket named on its command line
and sends one JSON request per line: build a Board from tiles, build a Solver, call a sheet
method on a handle, measure a handle. The worker answers each with data only -- ints, bools,
strings, None, lists of them, tile lists of reference boards, or a handle to a new object --
or the exception raised. Everything it says is evidence the judge checks; nothing in this
process (not even a measure) is believed as a verdict. Stdlib only, Python 3.6+.
"""

import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import apih_core  # noqa: E402  (the worker's own modules first: the student's may share names)
from apih_core import _describe, _SizeRef, deep_size, traced_peak  # noqa: E402
from apih_names import Api, find_classes  # noqa: E402

try:  # only the Solver tests' worker has the reference Board (see apih_ref.py)
    import apih_ref  # noqa: E402
    from apih_count import counted_solve, try_substitute  # noqa: E402
    RefBoard = apih_ref.RefBoard
except ImportError:
    apih_ref = None
    RefBoard = None

MAX_ITEMS = 100000


class Worker(object):
    def __init__(self, spec):
        self.spec = spec
        self.handles = {}
        self.api = None
        self.deadline = [None]

    def handle(self, obj):
        key = len(self.handles) + 1
        self.handles[key] = obj
        return {"h": key, "type": type(obj).__name__}

    def encode(self, value, depth=0):
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return {"float": repr(value)}
        if RefBoard is not None and type(value) is RefBoard:
            return {"tiles": list(value.t), "n": value.n}
        if depth == 0 and isinstance(value, (list, tuple)) or (depth == 0 and _iterable_not_board(value, self.api)):
            items = []
            for item in value:
                items.append(self.encode(item, 1))
                if len(items) > MAX_ITEMS:
                    break
            return {"list": items, "type": type(value).__name__}
        return self.handle(value)

    def decode(self, value):
        if isinstance(value, dict) and "h" in value:
            return self.handles[value["h"]]
        if isinstance(value, dict) and "ref" in value and RefBoard is not None:
            return RefBoard.of(value["ref"], value["n"])
        return value

    def op_find(self, req):
        board_cls, solver_cls, modules, problems = find_classes(self.spec)
        self.api = Api(board_cls, solver_cls, modules, self.spec.get("styles") or ["princeton", "snake_case",
                                                                                  "cmpe160"])
        return {"board": board_cls is not None, "solver": solver_cls is not None, "modules": modules,
                "problems": problems, "names": self.api.names, "missing": self.api.missing}

    def op_new(self, req):
        cls = {"board": self.api.board_cls, "solver": self.api.solver_cls}[req["cls"]]
        return self.encode_new(cls(*[self.decode(a) for a in req["args"]]))

    def encode_new(self, obj):
        return self.handle(obj)

    def op_call(self, req):
        return self.encode(self.api.call(self.decode(req["on"]), req["member"], *[self.decode(a) for a in req["args"]]))

    def op_substitute(self, req):
        return try_substitute(self.api, self.spec.get("board_classes") or ["Board", "Puzzle"])

    def op_keep(self, req):
        return self.handle(req["value"])

    def op_mutate(self, req):
        grid = self.decode(req["on"])
        n = len(grid)
        grid[0][0], grid[n - 1][n - 1] = grid[n - 1][n - 1], grid[0][0]
        grid[0] = list(reversed(grid[0]))

    def op_sizes(self, req):
        return {"student": deep_size(self.decode(req["on"])),
                "reference": deep_size(_SizeRef(req["tiles"], req["n"]))}

    def op_calibrate(self, req):
        """The reference A* on a board, before any student module is imported: the judge times it from
        outside, and keeps its tracemalloc peak as the peak-memory test's yardstick."""
        tiles, n = tuple(req["tiles"]), req["n"]
        if req.get("peak"):
            return {"peak": traced_peak(lambda: apih_ref.ref_solve(tiles, n))}
        return apih_ref.ref_solve(tiles, n)

    def op_peak(self, req):
        tiles, n = tuple(req["tiles"]), req["n"]
        moves = [None]

        def student():
            board = RefBoard.of(tiles, n) if req["substitute"] else self.api.board_cls(apih_core.rows(tiles, n))
            moves[0] = self.api.call(self.api.solver_cls(board), "moves")
        peak = traced_peak(student)
        return {"student": peak, "moves": self.encode(moves[0], 1)}

    def op_counted(self, req):
        counts, far, moves = counted_solve(self.api, tuple(req["tiles"]), req["n"], req["substitute"])
        return {"counts": counts, "far": far and [list(far[0]), list(far[1]), far[2]], "moves": self.encode(moves, 1)}

    def op_release(self, req):
        self.handles.clear()


def _iterable_not_board(value, api):
    if api is not None and api.board_cls is not None and isinstance(value, api.board_cls):
        return False
    if api is not None and api.solver_cls is not None and isinstance(value, api.solver_cls):
        return False
    try:
        iter(value)
    except TypeError:
        return False
    return not isinstance(value, (bytes, dict))


def _watchdog(worker):
    """Ends the process when a call outlives its deadline: the judge has already failed that test."""
    while True:
        time.sleep(0.05)
        deadline = worker.deadline[0]
        if deadline is not None and time.time() > deadline:
            os._exit(75)


def main():
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(sys.argv[1])
    stream = conn.makefile("rwb")
    spec = json.loads(stream.readline().decode("utf-8"))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the student's prints go nowhere; the answers go on the socket
    # For the worker's whole life (no context manager): closed at its exit.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    sys.stdin = open(os.devnull)  # noqa: SIM115
    if apih_ref is not None:
        apih_ref.count_priority_queues()
    worker = Worker(spec)
    threading.Thread(target=_watchdog, args=(worker,), daemon=True).start()
    while True:
        line = stream.readline()
        if not line:
            os._exit(0)
        req = json.loads(line.decode("utf-8"))
        worker.deadline[0] = time.time() + req.get("seconds", 10)
        try:
            reply = {"ok": getattr(worker, "op_" + req["op"])(req)}
        except RecursionError as exc:
            reply = {"raised": "RecursionError", "text": "RecursionError: %s" % str(exc)[:200]}
        except MemoryError:
            reply = {"raised": "MemoryError", "text": "ran out of memory"}
        except BaseException as exc:
            reply = {"raised": type(exc).__name__, "text": _describe(exc)}
        worker.deadline[0] = None
        stream.write(json.dumps(reply).encode("utf-8") + b"\n")
        stream.flush()


if __name__ == "__main__":
    main()
