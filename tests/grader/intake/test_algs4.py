"""algs4 editions: what the sources say, which library sets are tried in which order, and when to retry."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from grader.intake.java import algs4
from grader.intake.java.algs4 import Attempt, Library, Usage, blames_library, library_names, plan, write_without
from grader.intake.java.java_source import parse_java

UNNAMED = frozenset({"In", "StdOut", "StdIn", "MinPQ", "Queue", "Stack", "Bag", "Date"})
STDLIB, OLD_ALGS4 = frozenset({"In", "StdOut", "StdIn", "Date"}), frozenset({"MinPQ", "Queue", "Stack", "Bag"})
LIBRARIES = {"packaged": Library("packaged", (Path("/libs/algs4.jar"),), UNNAMED),
             "unnamed": Library("unnamed", (Path("/old/stdlib.jar"), Path("/old/algs4.jar")), UNNAMED,
                                (STDLIB, OLD_ALGS4))}

# name: (sources, packaged names, unnamed names, names left to java)
SCANS = {
    "packaged-imports": (["import edu.princeton.cs.algs4.MinPQ;\nimport edu.princeton.cs.algs4.StdOut;\n"
                          "class Solver { MinPQ<Integer> pq; void f() { StdOut.println(1); } }"],
                         {"MinPQ", "StdOut"}, set(), set()),
    "packaged-wildcard": (["import edu.princeton.cs.algs4.*;\nclass Solver { MinPQ<Integer> pq; In in; }"],
                          {"*"}, set(), set()),
    "packaged-written-in-full": (["class Solver { edu.princeton.cs.algs4.MinPQ<Integer> pq; }"], {"MinPQ"}, set(),
                                 set()),
    "unnamed-no-import": (["import java.util.HashSet;\nclass Solver { MinPQ<Node> pq; Stack<Board> path; "
                           "void f() { StdOut.println(new In(\"x\").readInt()); } }"],
                          set(), {"MinPQ", "Stack", "StdOut", "In"}, set()),
    "java-util-star-keeps-its-queue": (["import java.util.*;\nclass Solver { Queue<Board> q = new LinkedList<>(); "
                                        "MinPQ<Node> pq; void f() { StdOut.println(1); } }"],
                                       set(), {"MinPQ", "StdOut"}, {"Queue"}),
    "single-type-import-wins": (["import java.util.Stack;\nclass Solver { Stack<Board> s; In in; }"],
                                set(), {"In"}, set()),
    "own-copies-are-not-the-library": (["class Solver { In in; StdOut out; }", "public class In { }",
                                        "public final class StdOut { }"], set(), set(), set()),
    "named-package-cannot-see-unnamed": (["package puzzle8;\nclass Solver { In in; MinPQ<Node> pq; }"],
                                         set(), set(), set()),
    "comments-and-strings-are-not-uses": (['class Solver { /* uses MinPQ */ String s = "StdOut"; // In\n }'],
                                          set(), set(), set()),
    "text-blocks-are-not-uses": (['class Solver { String s = """\n  MinPQ<Node> pq; StdOut.println(1);\n  """; }'],
                                 set(), set(), set()),
    "an-escape-spells-a-use": (["class Solver { M\\u0069nPQ<Node> pq; }"], set(), {"MinPQ"}, set()),
    "static-import-of-a-packaged-class": (["import static edu.princeton.cs.algs4.StdOut.println;\n"
                                           "class Solver { void f() { println(1); } }"], {"StdOut"}, set(), set()),
    "written-in-full-in-code": (["class Solver { void f() { edu.princeton.cs.algs4.StdOut.println(1); } }"],
                                {"StdOut"}, set(), set()),
    "own-member-class-is-not-the-library": (["class Solver { static class Queue<T> { } Queue<Node> q; Bag b; }"],
                                            set(), {"Bag"}, set()),
    "after-a-dot-is-not-a-use": (["class Solver { java.util.Stack<Node> s; Board.Queue q; }"], set(), set(), set()),
    "mixed": (["import edu.princeton.cs.algs4.MinPQ;\nclass Solver { MinPQ<Node> pq; void f() { StdOut.println(1); }}"],
              {"MinPQ"}, {"StdOut"}, set()),
}


def scan(sources: list[str], unnamed: frozenset[str]) -> Usage:
    return algs4.scan([parse_java(text.encode()) for text in sources], unnamed)


@pytest.mark.parametrize("name", sorted(SCANS))
def test_scan(name: str) -> None:
    sources, packaged, unnamed, java_wins = SCANS[name]
    usage = scan(sources, UNNAMED)
    assert (set(usage.packaged), set(usage.unnamed), set(usage.java_wins)) == (packaged, unnamed, java_wins)


def flavours(attempts: list[Attempt]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(a.flavours, tuple(sorted(a.held_back))) for a in attempts]


def test_plan_follows_the_evidence_then_offers_the_rest() -> None:
    # MinPQ comes from the old algs4.jar: whoever wrote this had its Queue, so it is tried first
    unnamed = scan(SCANS["java-util-star-keeps-its-queue"][0], UNNAMED)
    assert flavours(plan(unnamed, LIBRARIES)) == [(("unnamed",), ()), (("unnamed",), ("Queue",)),
                                                  (("packaged",), ())]
    # only stdlib.jar's classes: algs4.jar's Queue and Stack were never theirs, java.util's are meant
    stdlib_only = scan(["import java.util.*;\nclass Solver { Queue<Board> q; Stack<Board> s; "
                        "void f() { StdOut.println(new In(\"x\")); } }"], UNNAMED)
    assert flavours(plan(stdlib_only, LIBRARIES)) == [(("unnamed",), ("Queue", "Stack")), (("unnamed",), ()),
                                                      (("packaged",), ())]
    packaged = scan(SCANS["packaged-imports"][0], UNNAMED)
    assert flavours(plan(packaged, LIBRARIES))[0] == (("packaged",), ())
    mixed = scan(SCANS["mixed"][0], UNNAMED)
    assert flavours(plan(mixed, LIBRARIES))[0] == (("packaged", "unnamed"), ())
    nothing = scan(["class Solver { java.util.PriorityQueue<int[]> pq; }"], UNNAMED)
    assert flavours(plan(nothing, LIBRARIES))[0] == (("packaged",), ())


def test_plan_uses_only_configured_editions() -> None:
    usage = scan(SCANS["unnamed-no-import"][0], UNNAMED)
    assert flavours(plan(usage, {"packaged": LIBRARIES["packaged"]})) == [(("packaged",), ())]
    assert plan(usage, {}) == []


def test_describe_names_the_jars_and_what_was_held_back() -> None:
    text = Attempt(("unnamed",), frozenset({"Queue"})).describe(LIBRARIES)
    assert text == ("algs4 unnamed package: stdlib.jar, algs4.jar; Queue left to the Java library the sources "
                    "import (import ...*)")


# javac's own wording, as JDK 17 prints it
MISSING_STDOUT = """Solver.java:12: error: cannot find symbol
        StdOut.println(solver.moves());
        ^
  symbol:   variable StdOut
  location: class Solver
1 error
"""
MISSING_PACKAGE = """Solver.java:1: error: package edu.princeton.cs.algs4 does not exist
import edu.princeton.cs.algs4.MinPQ;
                             ^
1 error
"""
OWN_MISTAKE = """Board.java:30: error: ';' expected
        int x = 1
                 ^
1 error
"""


def test_retry_only_when_errors_name_the_library() -> None:
    assert blames_library(MISSING_STDOUT, LIBRARIES)
    assert blames_library(MISSING_PACKAGE, LIBRARIES)
    assert not blames_library(OWN_MISTAKE, LIBRARIES)


def test_jar_listing_and_copy_without_held_back_classes(tmp_path: Path) -> None:
    jar = tmp_path / "algs4.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        for entry in ("Queue.class", "Queue$Node.class", "Queue$ListIterator.class", "MinPQ.class", "StdOut.class",
                      "META-INF/MANIFEST.MF", "edu/princeton/cs/algs4/Bag.class", "edu/princeton/cs/algs4/In.class"):
            archive.writestr(entry, b"")
    assert library_names("unnamed", jar) == {"Queue", "MinPQ", "StdOut"}
    assert library_names("packaged", jar) == {"Bag", "In"}
    write_without(jar, frozenset({"Queue"}), tmp_path / "held.jar")
    with zipfile.ZipFile(tmp_path / "held.jar") as archive:
        assert sorted(archive.namelist()) == ["META-INF/MANIFEST.MF", "MinPQ.class", "StdOut.class",
                                              "edu/princeton/cs/algs4/Bag.class", "edu/princeton/cs/algs4/In.class"]


@pytest.mark.java
def test_unreadable_library_jar_is_a_judge_error_naming_the_config(tmp_path: Path) -> None:
    import dataclasses

    from grader.intake.build import build
    from grader.testsets.assignment import Algs4Config, Assignment, JavaConfig
    from tests.support import require_tool

    require_tool("javac")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Solver.java").write_text("public class Solver { public static void main(String[] a) { "
                                                  "System.out.println(1); } }\n")
    (tmp_path / "algs4.jar").write_text("not a zip")
    (tmp_path / "work").mkdir()
    assignment = dataclasses.replace(Assignment(source="course/assignment.toml"), java=JavaConfig(
        algs4=Algs4Config(packaged=(tmp_path / "algs4.jar",))))
    built = build(tmp_path / "sub", tmp_path / "work", assignment)
    assert built.failure is not None and built.failure.value == "JE"
    assert built.message == (f"[java.algs4] in course/assignment.toml: cannot read a library jar: "
                             f"{tmp_path / 'algs4.jar'}: File is not a zip file")
