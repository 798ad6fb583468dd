"""Blanking comments and literals in Java source: offsets and lines kept, linear time on hostile input."""

from __future__ import annotations

import pytest

from grader.intake.java.algs4 import scan
from grader.intake.java.java_text import blank_comments

SOURCE = '''package p; // MinPQ in a comment
/* In
   StdOut */ class A { String s = "Stack \\" Queue"; char c = '\\''; char d = '"'; Bag b; }
String t = "unterminated Queue
Date x;'''


def test_blanked_text_keeps_offsets_and_code() -> None:
    blanked = blank_comments(SOURCE)
    assert len(blanked) == len(SOURCE) and blanked.count("\n") == SOURCE.count("\n")
    for word in ("MinPQ", "In\n", "StdOut", "Stack", "Queue"):
        assert word not in blanked
    for word in ("package p;", "class A {", "Bag b;", "Date x;", "char c =", "char d ="):
        assert word in blanked


@pytest.mark.timeout(30)
@pytest.mark.parametrize("hostile", ["/*" * 150_000, '"' * 300_000, "'\\" * 150_000, "// x\n" * 100_000,
                                     "import " * 50_000, "\n" * 300_000 + "x"], ids=["comments", "quotes", "chars",
                                                                                     "lines", "imports", "newlines"])
def test_hostile_source_costs_one_pass(hostile: str) -> None:
    # a quadratic scan of these would take hours; the pytest timeout turns that into a failure
    assert len(blank_comments(hostile)) == len(hostile)
    scan([hostile], frozenset({"In", "Queue"}))
