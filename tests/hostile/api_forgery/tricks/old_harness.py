# Trick: the attack that forged the old in-process harness: find its nonce and private stream, report a
# pass for every test, and leave. The judge has neither a nonce nor a stream in this process.
import json as _json
import os as _os
import sys as _sys

_core = _sys.modules.get("apih_core")
if _core is not None and getattr(_core, "OUT", [None])[0] is not None:
    _catalogue = ["api.conformance", "board.hamming.files", "board.hamming.random", "board.manhattan.files", "board.manhattan.random", "board.dimension", "solver.moves.files", "timing.counts", "board.memory"]
    for _name in _catalogue:
        _core.OUT[0].write("@@api %s %s\n" % (_core.NONCE[0], _json.dumps(
            {"name": _name, "passed": True, "message": "passed in 0.01 s"})))
    _core.OUT[0].flush()
    _os._exit(0)
