"""Worker-side measures: the operation counts of one solve, and the reference Board substitution.

Part of the Python API worker (``apiw_worker.py``). What these return is measured next to the
student's code, so the judge believes it only as far as ``docs/api-tests.md`` says.
"""

from apih_core import _describe, rows, timer
from apih_ref import COUNTING_QUEUES, RefBoard, _near


class Wrapped(object):
    """The student's Board with counting wrappers around the methods the timing tests count.

    The counts go to :attr:`RefBoard.counts`, as the reference Board's own do; ``equals`` with a
    board that is neither the same nor a neighbour of a neighbour is counted as ``far_equals``.
    """

    def __init__(self, api):
        self.cls = api.board_cls
        self.saved = {}
        self.show = getattr(self.cls, api.names.get("toString") or "__str__")
        plan = {"init": ["__init__"], "hamming": [api.names.get("hamming")],
                "manhattan": [api.names.get("manhattan")], "tostring": ["__str__", "toString", "to_string"],
                "equals": ["__eq__", "equals"]}
        for key, names in plan.items():
            for name in names:
                if name and name not in self.saved and _own(self.cls, name):
                    self.wrap(name, key)

    def wrap(self, name, key):
        original = getattr(self.cls, name)
        self.saved[name] = self.cls.__dict__.get(name, _MISSING)
        show = self.show

        def counted(board, *args, **kwargs):
            RefBoard.counts[key] += 1
            if key == "equals" and args and isinstance(args[0], self.cls):
                a, b = _tiles(show(board)), _tiles(show(args[0]))
                if a and b and a[1] == b[1] and a[0] != b[0] and not _near(a[0], b[0], a[1]):
                    RefBoard.counts["far_equals"] += 1
                    RefBoard.far_example[0] = (a[0], b[0], a[1])
            return original(board, *args, **kwargs)

        setattr(self.cls, name, counted)

    def reset(self):
        for key in RefBoard.counts:
            RefBoard.counts[key] = 0
        RefBoard.far_example[0] = None

    def restore(self):
        for name, value in self.saved.items():
            if value is _MISSING:
                delattr(self.cls, name)
            else:
                setattr(self.cls, name, value)


_MISSING = object()


def _own(cls, name):
    return any(name in vars(klass) for klass in cls.__mro__ if klass is not object)


def _tiles(text):
    """(tiles, n) from a toString(), or None when it does not read as a board."""
    try:
        lines = [line.split() for line in str(text).strip().split("\n") if line.strip()]
        n = int(lines[0][0])
        return tuple(int(v) for row in lines[1:] for v in row), n
    except (ValueError, IndexError):
        return None


def counted_solve(api, tiles, n, substitute):
    """(counts, an equals() example or None, moves()) of one solve, the student's Board restored after."""
    wrapped = None if substitute else Wrapped(api)
    try:
        board = RefBoard.of(tiles, n) if wrapped is None else api.board_cls(rows(tiles, n))
        for key in RefBoard.counts:
            RefBoard.counts[key] = 0
        RefBoard.far_example[0] = None
        COUNTING_QUEUES[0] = True
        try:
            moves = api.call(api.solver_cls(board), "moves")
        finally:
            COUNTING_QUEUES[0] = False
        return dict(RefBoard.counts), RefBoard.far_example[0], moves
    finally:
        if wrapped is not None:
            wrapped.restore()


def try_substitute(api, names):
    """Put the reference Board inside the student's Solver's modules, unless the Solver then fails on a
    2-move board (it reaches past the sheet's API): "" when substituted, else why not."""
    import sys
    modules = [m for m in list(sys.modules.values()) if getattr(m, "Solver", None) is api.solver_cls]
    for module in modules:
        for attr in names:
            if getattr(module, attr, None) is api.board_cls:
                setattr(module, attr, RefBoard)
    try:
        with timer(5):
            ok = api.call(api.solver_cls(RefBoard.of((1, 2, 3, 4, 5, 6, 0, 7, 8), 3)), "moves") == 2
        problem = "" if ok else "moves() was wrong with the reference Board"
    except BaseException as exc:
        problem = _describe(exc)
    if problem:
        for module in modules:
            for attr in names:
                if getattr(module, attr, None) is RefBoard:
                    setattr(module, attr, api.board_cls)
    return problem
