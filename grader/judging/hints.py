"""What a careful TA would say about a crash: read the program's stderr for known causes.

Each hint turns a familiar failure from real submissions into one sentence the student
can act on (the hard-coded input name, ``split(" ")`` on padded rows, Python 2 code, a
missing module...). The first matching rule wins; ``None`` means nothing recognisable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Context:
    """The facts a hint may mention: how the input was given, and the Python that runs submissions
    (``python``: how it names itself, ``CPython 3.11.2``; ``packages``: what the assignment provides)."""

    io: str = "files"
    input_file: str = "input.txt"
    output_file: str = "output.txt"
    python: str = ""
    packages: tuple[str, ...] = ()

    @property
    def input_given(self) -> str:
        return {"files": f"the input is the file {self.input_file!r} in the working folder",
                "argv": "the input file's path is the first command-line argument",
                "stdin": "the input comes on standard input",
                "board-arg": "the board comes as one comma-separated command-line argument (0,1,2,..., row by "
                             "row, 0 the blank)"}[self.io]


def _python2(match: re.Match[str], ctx: Context) -> str:
    runs = ctx.python or "Python 3"
    return f"this is Python 2 code (a print statement); the assignment runs submissions with {runs}"


def _missing_module(match: re.Match[str], ctx: Context) -> str:
    module = match.group("mod")
    provided = (f"the assignment provides {', '.join(ctx.packages)} and the standard library" if ctx.packages
                else "the assignment provides the standard library only")
    return f"the module {module!r} is not available where submissions run: {provided}"


def _missing_file(match: re.Match[str], ctx: Context) -> str | None:
    name = match.group("name").strip().strip("'\"")
    if name.endswith(ctx.input_file) and ctx.io == "files" and "/" not in name and "\\" not in name:
        return None
    return (f"the program tried to open {name!r}, which does not exist: {ctx.input_given} "
            "(do not hard-code a name or path)")


def _uncaught(name: str, message: str | None) -> str:
    return f"uncaught {name}" + (f": {message}" if message else "")


_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], Context], str | None]], ...] = (
    (re.compile(r"java\.io\.FileNotFoundException: (?P<name>.+?)(?: \((?:No such file|The system cannot).*)?$", re.M),
     _missing_file),
    (re.compile(r"FileNotFoundError: \[Errno 2\] No such file or directory: (?P<name>.+)$", re.M), _missing_file),
    (re.compile(r"java\.nio\.file\.NoSuchFileException: (?P<name>.+)$", re.M), _missing_file),
    (re.compile(r'NumberFormatException: For input string: ""'),
     lambda m, ctx: 'the program read an empty string as a number: the input pads tiles with extra spaces, so '
                    'split lines on any whitespace (split("\\\\s+") after trim(), or a Scanner), not split(" ")'),
    (re.compile(r"ValueError: invalid literal for int\(\) with base 10: ''"),
     lambda m, ctx: "the program read an empty string as a number: the input pads tiles with extra spaces, so "
                    "use line.split() with no argument, not split(' ')"),
    (re.compile(r"java\.lang\.OutOfMemoryError"),
     lambda m, ctx: "the JVM ran out of heap: the search keeps too many boards (use a better heuristic, or "
                    "detect unsolvable boards early)"),
    (re.compile(r"MemoryError"), lambda m, ctx: "Python ran out of memory: the search keeps too many boards"),
    (re.compile(r"java\.lang\.StackOverflowError"),
     lambda m, ctx: "the recursion went too deep (StackOverflowError): search iteratively"),
    (re.compile(r"RecursionError"), lambda m, ctx: "the recursion went too deep (RecursionError): search iteratively"),
    (re.compile(r"SyntaxError: Missing parentheses in call to '(print|exec)'"),
     _python2),
    (re.compile(r"(ModuleNotFoundError|ImportError): No module named '?(?P<mod>[A-Za-z_]\w*)"), _missing_module),
    (re.compile(r"sys\.argv\[\d+\].*\n(?:.*\n)*?IndexError"),
     lambda m, ctx: f"the program expected a command-line argument: {ctx.input_given}"),
    (re.compile(r"java\.util\.NoSuchElementException|EOFError|java\.lang\.ArrayIndexOutOfBoundsException: "
                r"(Index 0 out of bounds for length 0|0)\b"),
     lambda m, ctx: f"the program expected input it did not get: {ctx.input_given}"),
    (re.compile(r"Exception in thread \"main\" (?P<exc>[\w.$]+)(?:: (?P<msg>.*))?"),
     lambda m, ctx: _uncaught(m.group("exc").rsplit(".", 1)[-1], m.group("msg"))),
    (re.compile(r"^(?P<exc>[A-Z]\w*(Error|Exception))(?:: (?P<msg>.*))?$", re.M),
     lambda m, ctx: _uncaught(m.group("exc"), m.group("msg"))),
)


def explain(stderr: bytes | str, ctx: Context = Context()) -> str | None:
    """One sentence about the likely cause of a failed run, from its stderr."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    for pattern, hint in _RULES:
        match = pattern.search(text)
        if match:
            result = hint(match, ctx)
            if result:
                return result
    return None


def tail(data: bytes | str, lines: int = 6, width: int = 200) -> str:
    """The last lines of a stream, each cut to ``width`` characters, for a message."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    kept = [line.rstrip()[:width] for line in text.strip().splitlines()[-lines:]]
    return "\n".join(kept)


def excerpt(stderr: bytes | str, lines: int = 6) -> str:
    """The telling part of stderr: a Java exception's head (the cause and the first frames), else the tail."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    kept = text.strip().splitlines()
    for index, line in enumerate(kept):
        if line.startswith("Exception in thread"):
            return "\n".join(row.rstrip()[:200] for row in kept[index:index + lines])
    return tail(text, lines)
