"""The Java main class, found by a real parser: data-driven over ``data/java-mains``.

Each file's first line says which classes declare a launchable ``main`` (``none``, or names
with ``(empty)`` for a body of comments only and ``(not public)`` for a static main that is
not public). Each expectation was checked by compiling the file with javac 17 and running
``java`` on the class (a BOM and a syntax error aside, which javac refuses).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from grader.intake.java.java_source import parse_java
from grader.intake.timecap import HostStepTimeout

DATA = Path(__file__).resolve().parent / "data" / "java-mains"
FILES = sorted(DATA.glob("*.java"))


def described(source: bytes) -> str:
    mains = parse_java(source).mains
    return ", ".join(m.name + (" (empty)" if m.empty else "") + ("" if m.public else " (not public)")
                     for m in mains) or "none"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_main_classes(path: Path) -> None:
    data = path.read_bytes()
    expected = re.search(rb"// expect: (.*)", data).group(1).decode().strip()
    assert described(data) == expected


def test_package_and_imports() -> None:
    source = parse_java(b"package  a . /* x */ b;\nimport static org.junit.Assert.*;\nimport java.util.List;\n"
                        b"class C {}")
    assert source.package == "a.b"
    assert [(i.name, i.static, i.wildcard) for i in source.imports] == [
        ("org.junit.Assert", True, True), ("java.util.List", False, False)]
    assert source.imports_from("org.junit") and not source.imports_from("org.jun")
    assert source.types == ("C",)


@pytest.mark.parametrize("source", [
    b"class A { int x = " + b"(" * 200_000 + b"1" + b")" * 200_000 + b"; public static void main(String[] a) {} }",
    b"class A { void f() " + b"{" * 200_000 + b"}" * 200_000 + b" public static void main(String[] a) {} }",
    b"".join(b"class C%d { " % i for i in range(3000)) + b"}" * 3000,
], ids=["nested-parentheses", "nested-blocks", "nested-classes"])
def test_deep_nesting_never_recurses(source: bytes) -> None:
    parse_java(source)  # RecursionError here would be a JE for the student


def test_a_parse_stops_at_its_deadline() -> None:
    with pytest.raises(HostStepTimeout, match="reading the Java sources"):
        parse_java(b"class A { int x = " + b"(" * 1_000_000, deadline=time.monotonic() - 1)


def test_parsing_from_many_threads_at_once_gives_each_its_answer():
    """Grading workers parse Java at the same time (-j N); one shared tree-sitter parser segfaulted
    the whole grader. Every thread must get the answer its own source gives, and the process live."""
    import threading

    sources = {
        i: (f"package p{i};\nimport edu.princeton.cs.algs4.MinPQ;\n"
            f"public class C{i} {{ public static void main(String[] a) {{ int x = {i}; }} }}\n" * 40).encode()
        for i in range(8)
    }
    wrong: list[str] = []

    def worker(i: int) -> None:
        for _ in range(60):
            # A deadline makes tree-sitter call back into Python mid-parse, where threads switch.
            parsed = parse_java(sources[i], deadline=time.monotonic() + 60)
            if parsed.package != f"p{i}" or f"C{i}" not in parsed.types:
                wrong.append(f"thread {i}: {parsed.package} {parsed.types[:1]}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
