"""The Python syntax check: the assignment's own interpreter compiles the entry file, in the sandbox.

A submission's source is never compiled in the grader's process: a 2.4 MB file once
took the grader to 1 GB, and Python 2 code is only wrong for a Python 3 grader. The
check runs :data:`CHECK_SCRIPT` (valid Python 2.7 and 3.x) with the interpreter the
runs use, under :func:`grader.sandbox.runner.run_command` and the run's memory limit,
on a private copy of the entry file. ``compile()`` never executes the student's code.

:func:`check_syntax` returns a :class:`SyntaxReport`: ``ok``, or the student's fault (a
``CE`` with the file, the line and the interpreter's words), or the check's own failure.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import runner

CHECK_SECONDS = 60.0
CHECK_OUTPUT_BYTES = 64_000
CHECK_SCRIPT = r"""
import platform, sys
def main():
    sys.stdout.write("interpreter\t%s %d.%d.%d\n" % ((platform.python_implementation(),) + tuple(sys.version_info[:3])))
    handle = open(sys.argv[1], "rb")
    try:
        source = handle.read()
    finally:
        handle.close()
    try:
        compile(source, sys.argv[2], "exec", 0, True)
    except SyntaxError as error:
        text = (error.text or "").strip().replace("\t", " ").replace("\n", " ")[:200]
        sys.stdout.write("syntax\t%s\t%s\t%s\n" % (error.lineno, str(error.msg).replace("\n", " "), text))
        return 1
    except (ValueError, TypeError) as error:
        sys.stdout.write("invalid\t\t%s\n" % str(error).replace("\n", " "))
        return 1
    sys.stdout.write("ok\n")
    return 0
sys.exit(main())
"""
"""Compiles ``argv[1]`` (named ``argv[2]`` in messages) and prints, one tab-separated record a line:
``interpreter NAME X.Y.Z``, then ``ok``, ``syntax LINE MESSAGE TEXT`` or ``invalid - MESSAGE`` (NUL bytes)."""

_PY2_MARKERS = ("Missing parentheses in call to 'print'", "Missing parentheses in call to 'exec'")
# Python 3-only syntax, as it shows in the offending line a Python 2 interpreter quotes.
# Plain alternations with no nested quantifier: linear in the line's length.
_PY3_ONLY = re.compile(r"""(?x)
      (?<![\w.])(?:[fF][rR]?|[rR][fF])["']   # an f-string
    | \bnonlocal\b | \basync\s+def\b | \bawait\b | :=  | \byield\s+from\b
    | \)\s*->                                 # a return annotation
    | \b(?:end|sep|file|flush)\s*=            # the keyword arguments of print
""")


@dataclass(frozen=True)
class SyntaxReport:
    """The outcome of a syntax check: ``ok``; or ``student_fault`` with ``message``; or neither (the
    check itself failed: ``message`` says why, a grader fault)."""

    ok: bool
    student_fault: bool
    message: str
    interpreter: str = ""
    """What ran the check, as it names itself (``CPython 3.11.2``, ``PyPy 3.9.16``)."""


def _read_no_follow(path: Path) -> bytes | None:
    """The entry file's bytes, refusing a symbolic link or anything but a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return handle.read()


def check_syntax(python: str, entry: Path, shown_name: str, folder: Path, memory_mb: int,
                 readable: tuple[Path, ...] = ()) -> SyntaxReport:
    """Compile ``entry`` with ``python`` in the sandbox, in the empty folder ``folder``.

    ``shown_name`` is how messages name the file (its path in the submission); ``memory_mb``
    bounds the check as it bounds a run; ``readable`` are the paths the interpreter needs
    (its installation when outside the system folders). Never raises for anything the
    submission holds.
    """
    source = _read_no_follow(entry)
    if source is None:
        return SyntaxReport(False, True, f"{shown_name}: not a regular file (a link or a folder)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "entry.py").write_bytes(source)
    limits = runner.Limits(wall_seconds=CHECK_SECONDS, memory_mb=memory_mb, output_bytes=CHECK_OUTPUT_BYTES)
    argv = [python, "-E", "-s", "-S", "-B", "-c", CHECK_SCRIPT, "entry.py", shown_name]
    outcome = runner.run_command(argv, folder, limits, readable=readable, keep=())  # its stdout is all it says
    records = [line.split("\t") for line in outcome.stdout.decode("utf-8", "replace").splitlines()]
    interpreter = next((r[1] for r in records if r[0] == "interpreter" and len(r) > 1), "")
    result = next((r for r in records if r[0] in ("ok", "syntax", "invalid")), None)
    if result is not None and result[0] == "ok":
        return SyntaxReport(True, False, "", interpreter)
    if result is not None and result[0] == "syntax" and len(result) >= 3:
        line = result[1] if result[1] not in ("", "None") else "?"
        shown = f"\n    {result[3]}" if len(result) > 3 and result[3] else ""
        return SyntaxReport(False, True, f"{shown_name}:{line}: SyntaxError: {result[2]}"
                                         f"{python2_hint(result[2], interpreter)}"
                                         f"{python3_hint(result[3] if len(result) > 3 else '', interpreter)}{shown}",
                            interpreter)
    if result is not None and result[0] == "invalid":
        return SyntaxReport(False, True, f"{shown_name}: {result[-1]}", interpreter)
    # The compiler's own MemoryError counts here: the check runs the interpreter's compile, never the student's code.
    out_of_memory = outcome.memory_exceeded or (outcome.exit_code not in (0, None) and b"MemoryError" in outcome.stderr)
    if out_of_memory or outcome.timed_out:
        what = "memory limit" if out_of_memory else f"{CHECK_SECONDS:.0f} s"
        return SyntaxReport(False, True, f"{shown_name}: {interpreter or python} could not compile it within "
                                         f"the {what} (a file this large or this deeply nested is not a solution)",
                            interpreter)
    if interpreter:
        # The interpreter started and then died compiling: a source that crashes the compiler.
        err = outcome.stderr.decode("utf-8", "replace").strip().splitlines()
        return SyntaxReport(False, True, f"{shown_name}: {interpreter} could not compile it"
                                         + (f": {err[-1][:200]}" if err else ""), interpreter)
    err = (outcome.stderr or outcome.stdout).decode("utf-8", "replace").strip().splitlines()
    return SyntaxReport(False, False, f"the Python interpreter {python} did not run the syntax check (exit "
                                      f"{outcome.exit_code}, signal {outcome.signal})"
                                      + (f": {err[-1][:200]}" if err else ""))


def python3_hint(line: str, interpreter: str) -> str:
    """The hint for Python 3 code handed to a Python 2 interpreter (``interpreter`` as the check names it)."""
    version = interpreter.split()[-1] if interpreter else ""
    if not version.startswith("2.") or not _PY3_ONLY.search(line[:2000]):
        return ""
    return (f" (this is Python 3 code; the assignment runs submissions with {interpreter}, which has no f-strings, "
            "print(..., end=...), nonlocal, async/await, := or annotations)")


def python2_hint(message: str, interpreter: str) -> str:
    """The hint for Python 2 code handed to a Python 3 interpreter, naming the one that runs it."""
    if not any(marker in message for marker in _PY2_MARKERS):
        return ""
    runs = interpreter or "Python 3"
    return f" (this is Python 2 code; the assignment runs submissions with {runs}, where print is a function)"
