"""Everything a student controls is handled in linear time: 1 MB of adversarial text in well under a second.

Each entry point of the grader that reads student text (stdout through the output parser
and verifier, stderr through the hints, Java and Python sources, the javac log, ids in
reports; Java sources through tree-sitter) is fed text made by repeating one fragment: blank lines, runs of spaces, the
literal prefixes its patterns look for, unclosed comments. A quadratic pattern shows as
a 16x slowdown from 256 kB to 1 MB (the old ``sys.argv`` hint took 7 s at 256 kB); the
bound asserted is 8x plus 50 ms of noise, and 2 s of CPU time at 1 MB, both far from
what linear code takes here (tens of milliseconds) and from what quadratic code takes.
Calls that take under 0.2 s for 1 MB pass without the ratio, which keeps the test short.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from grader.intake import python_build
from grader.intake.java import algs4, driver, java_compile
from grader.intake.java.java_source import MAX_PARSED_BYTES, parse_java
from grader.judging import hints
from grader.judging.verify import Expected, Rules, verify
from grader.reports import escaping
from solver.board import Board
from solver.errors import SolverError
from solver.formats import parse_solution

FRAGMENTS = ["\n", " ", "\t", "\r\n", "sys.argv[1]\n", "sys.argv[1] ", "java.io.FileNotFoundException: x",
             "Exception in thread \"main\" ", "AError", "Error: ", "No module named '", "9", "9 ", "1 2 3\n",
             "Minimum number of moves = ", "minimum number of moves", "3\n", "/*", "//", "\"", "if ",
             "if __name__ == '__main__' ", "package ", "import ", "public static void main(", "{", "(",
             "\x1b[", "=", "\u202e", "ç", "12 errors", "1 error\n", "if\n", "\x00"]
JAVA_FRAGMENTS = ["\n", " ", "/*", "/* ", "{ ( /* \" class A { ", "//", "\"", "(", "{", "package ", "import ",
                  "public static void main(", "1 2 3\n", "sys.argv[1]\n", "class A { ", "\\u0041", "\\"]
LARGE = 1_000_000


_OLD_ALGS4 = algs4.Library(flavour="unnamed", jars=(),
                            names=frozenset({"In", "StdOut", "Queue", "Stack", "MinPQ", "MaxPQ", "Bag"}))
"""An unnamed-package library as the javac-log checks see it: the class names they look for."""


def _verify(text: str) -> None:
    verify(text, Expected(Board.goal(3), True, 0), Rules())


def _parse(text: str) -> None:
    try:
        parse_solution(text, "output", n=3)
    except SolverError:
        pass


ENTRY_POINTS: dict[str, Callable[[str], object]] = {
    "hints.explain": hints.explain,
    "hints.excerpt": hints.excerpt,
    "hints.tail": hints.tail,
    "parse_solution": _parse,
    "verify": _verify,
    "javac log": lambda text: (java_compile.count_errors(text), java_compile.first_errors(text),
                               algs4.blames_library(text, {"unnamed": _OLD_ALGS4}, frozenset({"Queue"})),
                               driver.diagnose(text, [".grader/SpecClient.java"], {"Board", "Solver"},
                                               _OLD_ALGS4.names)),
    "python main guard": python_build.PY_MAIN_RE.search,
    "xml_text": escaping.xml_text,
    "html_text": escaping.html_text,
    "json_in_script": escaping.json_in_script,
    "markdown_cell": escaping.markdown_cell,
    "safe_name": escaping.safe_name,
    "terminal_safe": escaping.terminal_safe,
    "csv_cell": escaping.csv_cell,
}


def cpu_seconds(function: Callable[[str], object], text: str) -> float:
    started = time.process_time()
    function(text)
    return time.process_time() - started


def repeated(fragment: str, size: int) -> str:
    return (fragment * (size // len(fragment) + 1))[:size]


def assert_linear(function: Callable[[str], object], fragment: str, large_size: int = LARGE) -> None:
    large = cpu_seconds(function, repeated(fragment, large_size))
    if large < 0.2:  # quadratic code takes minutes here: only a slow call needs the ratio
        return
    small = cpu_seconds(function, repeated(fragment, large_size // 4))
    assert large < 2.0, f"{large:.2f} s of CPU for {large_size:,} bytes of {fragment!r}"
    assert large < 8 * small + 0.05, \
        f"{small:.3f} s for a quarter but {large:.3f} s for {large_size:,} bytes of {fragment!r}"


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_student_text_is_handled_in_linear_time(name: str) -> None:
    for fragment in FRAGMENTS:
        assert_linear(ENTRY_POINTS[name], fragment)


def test_java_sources_are_parsed_in_linear_time() -> None:
    """tree-sitter's error recovery costs up to ~2.5 s per MB of garbage, so the build reads
    at most MAX_PARSED_BYTES of each file; that much takes well under 2 s. An unclosed ``/* ``
    before each parse's closing line took 16 s for 100 kB (tree-sitter rescanned to the end from
    each one)."""
    for fragment in JAVA_FRAGMENTS:
        assert_linear(lambda text: parse_java(text.encode()), fragment, MAX_PARSED_BYTES)


def test_the_argv_hint_still_finds_its_cause() -> None:
    stderr = ("Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\n"
              "    board = open(sys.argv[1]).read()\nIndexError: list index out of range\n")
    assert hints.explain(stderr).startswith("the program expected a command-line argument")
    assert not (hints.explain("sys.argv[1] was fine\n") or "").startswith("the program expected a command")
